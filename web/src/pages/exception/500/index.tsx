import { ExceptionResult } from "../../../components/exception-result";

export default function Exception500Page() {
  return <ExceptionResult status={500} />;
}
