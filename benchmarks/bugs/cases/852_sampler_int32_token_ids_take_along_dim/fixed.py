import torch
from jaxtyping import Float, Int


def topk_sample(
    logits: Float[torch.Tensor, "batch vocab"], k: int, generator: torch.Generator
) -> Int[torch.Tensor, "batch"]:
    vals, idx = logits.topk(k, dim=-1)
    probs = vals.softmax(dim=-1)
    choice = torch.multinomial(probs, 1, generator=generator)
    # ids are kept as int32 to match the detokenizer buffers
    return idx.gather(-1, choice).squeeze(-1).to(torch.int32)


def gather_logprobs(
    logprobs: Float[torch.Tensor, "batch vocab"], token_ids: Int[torch.Tensor, "batch"]
) -> Float[torch.Tensor, "batch"]:
    token_ids = token_ids.unsqueeze(-1).long()
    return torch.take_along_dim(logprobs, token_ids, dim=-1).squeeze(-1)


class Sampler:
    def __init__(self, top_k: int, seed: int = 0):
        self.top_k = top_k
        self.gen = torch.Generator().manual_seed(seed)

    def __call__(self, logits: Float[torch.Tensor, "batch vocab"]):
        token_ids = topk_sample(logits, self.top_k, self.gen)
        logprobs = logits.log_softmax(dim=-1)
        return token_ids, gather_logprobs(logprobs, token_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(4, 512)
    ids, lp = Sampler(top_k=20)(logits)
    ref = logits.log_softmax(dim=-1)
    for b in range(4):
        assert abs(lp[b].item() - ref[b, int(ids[b])].item()) < 1e-6
    print("ok")
