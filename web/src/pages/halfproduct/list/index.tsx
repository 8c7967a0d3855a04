import { EmptyPage } from "../../../components/empty-page";

export default function HalfproductListPage() {
  return <EmptyPage messageKey="empty.halfproduct.list" />;
}
