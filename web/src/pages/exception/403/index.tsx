import { ExceptionResult } from "../../../components/exception-result";

export default function Exception403Page() {
  return <ExceptionResult status={403} />;
}
