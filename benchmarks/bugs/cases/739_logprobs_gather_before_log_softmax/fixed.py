import torch
import torch.nn.functional as F
from jaxtyping import Float, Int


def logprobs_from_logits(
    logits: Float[torch.Tensor, "batch seq vocab"], labels: Int[torch.Tensor, "batch seq"]
) -> Float[torch.Tensor, "batch seq"]:
    logp = F.log_softmax(logits, dim=2)
    return torch.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)


def kl_penalty(
    policy_logits: Float[torch.Tensor, "batch seq vocab"],
    ref_logits: Float[torch.Tensor, "batch seq vocab"],
    response: Int[torch.Tensor, "batch seq"],
    mask: Float[torch.Tensor, "batch seq"],
) -> Float[torch.Tensor, "batch"]:
    logp = logprobs_from_logits(policy_logits, response)
    ref_logp = logprobs_from_logits(ref_logits, response)
    return ((logp - ref_logp) * mask).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = torch.randn(2, 5, 9)
    ref = policy + 0.5 * torch.randn(2, 5, 9)
    response = torch.randint(0, 9, (2, 5))
    mask = torch.ones(2, 5)
    lp = logprobs_from_logits(policy, response)
    kl = kl_penalty(policy, ref, response, mask)
    import math
    for b in range(2):
        tot = 0.0
        for t in range(5):
            a = int(response[b, t])
            p = float(policy[b, t, a]) - math.log(sum(math.exp(float(v)) for v in policy[b, t]))
            r = float(ref[b, t, a]) - math.log(sum(math.exp(float(v)) for v in ref[b, t]))
            assert abs(float(lp[b, t]) - p) < 1e-4
            tot += p - r
        assert abs(float(kl[b]) - tot) < 1e-4
    print("ok")
