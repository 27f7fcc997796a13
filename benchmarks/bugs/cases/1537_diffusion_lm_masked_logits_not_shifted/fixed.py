import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    """An autoregressive LM re-used as a masked-diffusion denoiser: the logits at position t score token t + 1."""

    def __init__(self, vocab_size: int, dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids: Int[Tensor, "b l"]) -> Float[Tensor, "b l v"]:
        h = self.embed(input_ids)
        h = h + torch.tanh(self.mix(h.cumsum(dim=1) / torch.arange(1, h.size(1) + 1).view(1, -1, 1)))
        return self.head(h)


def forward_process(
    input_ids: Int[Tensor, "b l"], mask_token_id: int, mask_prob: float, generator: torch.Generator
) -> tuple[Int[Tensor, "b l"], Bool[Tensor, "b l"]]:
    masked = torch.rand(input_ids.shape, generator=generator) < mask_prob
    masked[:, 0] = False  # the first token is never masked
    noisy = torch.where(masked, torch.full_like(input_ids, mask_token_id), input_ids)
    return noisy, masked


def diffusion_loss(
    model: nn.Module, input_ids: Int[Tensor, "b l"], noisy: Int[Tensor, "b l"], masked: Bool[Tensor, "b l"]
) -> Float[Tensor, ""]:
    logits: Float[Tensor, "b l v"] = model(noisy)
    # logits at t score token t + 1: move them one step right so position t scores token t
    logits = torch.cat([logits[:, :1], logits[:, :-1]], dim=1)
    batch_idx, seq_idx = torch.where(masked)
    masked_logits: Float[Tensor, "n v"] = logits[batch_idx, seq_idx]
    masked_targets: Int[Tensor, "n"] = input_ids[batch_idx, seq_idx]
    return F.cross_entropy(masked_logits, masked_targets)


def counting_batch(batch: int, length: int, generator: torch.Generator) -> Int[Tensor, "b l"]:
    start = torch.randint(0, 39, (batch, 1), generator=generator)
    return (start + torch.arange(length)) % 39


def pretrain_next_token(model: nn.Module, steps: int, generator: torch.Generator) -> None:
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        ids = counting_batch(16, 12, generator)
        logits = model(ids)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size, mask_token_id = 40, 39
    gen = torch.Generator().manual_seed(1)
    model = TinyCausalLM(vocab_size, 32)
    pretrain_next_token(model, 200, gen)  # stands in for the pretrained AR checkpoint
    input_ids = counting_batch(3, 12, gen)
    noisy, masked = forward_process(input_ids, mask_token_id, 0.3, gen)
    with torch.no_grad():
        loss = diffusion_loss(model, input_ids, noisy, masked)
        logits = model(noisy)
        terms = []
        for b in range(input_ids.size(0)):
            for t in range(input_ids.size(1)):
                if masked[b, t]:
                    terms.append(-logits[b, t - 1].log_softmax(-1)[input_ids[b, t]])
        ref = torch.stack(terms).mean()
    assert torch.allclose(loss, ref, atol=1e-5), (loss, ref)
    print("ok")
