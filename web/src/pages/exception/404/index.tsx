import { ExceptionResult } from "../../../components/exception-result";

export default function Exception404Page() {
  return <ExceptionResult status={404} />;
}
