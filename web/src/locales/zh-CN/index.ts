import { mergeNamespaces } from "../namespaces";
import * as namespaces from "./namespaces";

export default mergeNamespaces(namespaces);
