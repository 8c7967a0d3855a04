import { IdentityNotice } from "../components/identity-notice";

export default function UserRegisterResultPage() {
  return <IdentityNotice headingKey="user.registerResult.heading" />;
}
