import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def token_probs(
    probs: Float[Tensor, "batch k vocab"], tokens: Int[Tensor, "batch k"]
) -> Float[Tensor, "batch k"]:
    return probs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


def verify_draft(
    draft_probs: Float[Tensor, "batch k vocab"],
    target_probs: Float[Tensor, "batch k_plus_1 vocab"],
    draft_tokens: Int[Tensor, "batch k"],
    uniform: Float[Tensor, "batch k"],
) -> tuple[Int[Tensor, "batch"], Float[Tensor, "batch vocab"]]:
    """Speculative sampling: accept draft token i with probability min(1, p_target / p_draft); at the first
    rejection, resample from the normalised residual max(0, p_target - p_draft)."""
    k = draft_tokens.size(1)
    p_draft = token_probs(draft_probs, draft_tokens)
    p_target = token_probs(target_probs[:, :k], draft_tokens)
    accepted = uniform < (p_target / p_draft).clamp(max=1.0)
    rejected_any = ~accepted.all(dim=1)
    first_reject = torch.where(rejected_any, (~accepted).float().argmax(dim=1), torch.full_like(rejected_any, k, dtype=torch.long))

    # distribution for the token after the accepted prefix: residual at the rejection, target's bonus otherwise
    rows = first_reject.view(-1, 1, 1).expand(-1, 1, target_probs.size(-1))
    target_next = target_probs.gather(1, rows).squeeze(1)
    padded_draft = torch.cat([draft_probs, torch.zeros_like(draft_probs[:, :1])], dim=1)
    draft_next = padded_draft.gather(1, rows).squeeze(1)
    residual = (target_next - draft_next).clamp(min=0)
    residual = torch.where(rejected_any.unsqueeze(1), residual, target_next)
    residual = residual / residual.sum(-1, keepdim=True)
    return first_reject, residual


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, k, vocab = 3, 4, 7
    draft_probs = F.softmax(torch.randn(batch, k, vocab), dim=-1)
    target_probs = F.softmax(torch.randn(batch, k + 1, vocab), dim=-1)
    draft_tokens = torch.multinomial(draft_probs.view(-1, vocab), 1).view(batch, k)
    uniform = torch.rand(batch, k)
    num_accepted, next_dist = verify_draft(draft_probs, target_probs, draft_tokens, uniform)
    for b in range(batch):
        n = k
        for i in range(k):
            tok = draft_tokens[b, i].item()
            ratio = target_probs[b, i, tok].item() / draft_probs[b, i, tok].item()
            if not uniform[b, i].item() < min(1.0, ratio):
                n = i
                break
        assert num_accepted[b].item() == n
        if n < k:
            res = [max(0.0, target_probs[b, n, v].item() - draft_probs[b, n, v].item()) for v in range(vocab)]
        else:
            res = [target_probs[b, k, v].item() for v in range(vocab)]
        total = sum(res)
        for v in range(vocab):
            assert abs(next_dist[b, v].item() - res[v] / total) < 1e-5
    print("ok")
