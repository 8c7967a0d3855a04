import { IdentityNotice } from "../components/identity-notice";

export default function UserLoginPage() {
  return <IdentityNotice headingKey="user.login.heading" />;
}
