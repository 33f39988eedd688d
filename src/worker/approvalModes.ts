// Who answers the command policy's "ask" when no person is there to ask (the CLI): deny (the default)
// or, with --approve-asks, allow. Denials of the policy itself always stand.
import { approveAllApprover, denyAllApprover, type CommandApprover } from "../workspace/approvals";

export function unattendedApprover(approveAsks: boolean): CommandApprover {
  return approveAsks ? approveAllApprover : denyAllApprover;
}
