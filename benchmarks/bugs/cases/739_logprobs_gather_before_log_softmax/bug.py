import torch
import torch.nn.functional as F
from jaxtyping import Float, Int


def logprobs_from_logits(
    logits: Float[torch.Tensor, "batch seq vocab"], labels: Int[torch.Tensor, "batch seq"]
) -> Float[torch.Tensor, "batch seq"]:
    picked = torch.gather(logits, 2, labels.unsqueeze(2))
    return F.log_softmax(picked, dim=2).squeeze(-1)


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
    print("token logprobs:", logprobs_from_logits(policy, response))
    print("kl per sequence:", kl_penalty(policy, ref, response, mask))
