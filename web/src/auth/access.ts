/**
 * Spec section 6: the action directive. A check reads 'permissionId.action'
 * (the permission id is a menu key and may itself contain dots, so the action
 * is what follows the last dot). An element is hidden when the role holds that
 * permission and the action is not in its actionList; administrators see
 * everything. What the role does not mention at all is not hidden here: the
 * menu and the server already keep it out of reach.
 */

export interface AccessPermission {
  permissionId: string;
  actionList: readonly string[];
}

export interface AccessSubject {
  admin: boolean;
  permissions: readonly AccessPermission[];
}

export function parseActionCheck(check: string): { permissionId: string; action: string } {
  const dot = check.lastIndexOf(".");
  if (dot <= 0 || dot === check.length - 1) throw new Error(`an access check reads 'permissionId.action': ${check}`);
  return { permissionId: check.slice(0, dot), action: check.slice(dot + 1) };
}

export function isAllowed(subject: AccessSubject | null | undefined, check: string): boolean {
  if (!subject) return true;
  if (subject.admin) return true;
  const { permissionId, action } = parseActionCheck(check);
  const permission = subject.permissions.find((p) => p.permissionId === permissionId);
  return !permission || permission.actionList.includes(action);
}
