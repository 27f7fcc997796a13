import torch
import torch.nn.functional as F
from jaxtyping import Float, Int


def response_logprobs(
    logits: Float[torch.Tensor, "batch seq vocab"],
    input_ids: Int[torch.Tensor, "batch seq"],
    prompt_len: int,
) -> Float[torch.Tensor, "batch resp"]:
    # position t predicts token t + 1: drop the last logit and the first id
    shifted_logits = logits[:, :-1]
    targets = input_ids[:, 1:]
    log_probs = F.log_softmax(shifted_logits, dim=-1)
    token_lp = torch.take_along_dim(log_probs, targets.unsqueeze(-1), dim=-1).squeeze(-1)
    # the first response token is input_ids[:, prompt_len], scored by logits[:, prompt_len - 1]
    return token_lp[:, prompt_len - 1:]


def policy_loss(
    logp: Float[torch.Tensor, "batch resp"],
    old_logp: Float[torch.Tensor, "batch resp"],
    advantages: Float[torch.Tensor, "batch"],
    mask: Float[torch.Tensor, "batch resp"],
    clip: float = 0.2,
) -> Float[torch.Tensor, ""]:
    ratio = torch.exp(logp - old_logp)
    adv = advantages.unsqueeze(1)
    surr = torch.minimum(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv)
    return -(surr * mask).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, V, P = 3, 10, 20, 4
    logits = torch.randn(B, T, V)
    ids = torch.randint(0, V, (B, T))
    lp = response_logprobs(logits, ids, P)
    ref = torch.tensor([[F.log_softmax(logits[b, t - 1], -1)[ids[b, t]].item() for t in range(P, T)]
                        for b in range(B)])
    assert lp.shape == (B, T - P)
    assert torch.allclose(lp, ref, atol=1e-6)
    old = lp + 0.1 * torch.randn_like(lp)
    adv = torch.randn(B)
    mask = torch.ones_like(lp)
    mask[2, -2:] = 0
    loss = policy_loss(lp, old, adv, mask)
    num, den = 0.0, 0.0
    for b in range(B):
        for t in range(T - P):
            r = torch.exp(lp[b, t] - old[b, t]).item()
            s = min(r * adv[b].item(), min(max(r, 0.8), 1.2) * adv[b].item())
            num += s * mask[b, t].item()
            den += mask[b, t].item()
    assert abs(loss.item() + num / den) < 1e-5
    print("ok")
