import { IdentityNotice } from "../components/identity-notice";

export default function UserRegisterPage() {
  return <IdentityNotice headingKey="user.register.heading" />;
}
