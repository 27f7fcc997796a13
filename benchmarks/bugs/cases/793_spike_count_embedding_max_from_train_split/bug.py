import torch
from jaxtyping import Float, Int
from torch import nn


class SpikeCountEmbedding(nn.Module):
    """Embeds integer spike counts per neuron and mixes neurons into one token per time bin."""

    def __init__(self, max_spikes: int, num_neurons: int, dim: int):
        super().__init__()
        self.embedder = nn.Embedding(max_spikes + 2, dim)  # counts 0..max_spikes, +1 for the mask token
        self.mix = nn.Linear(num_neurons * dim, dim)

    def forward(self, spikes: Int[torch.Tensor, "batch time neurons"]) -> Float[torch.Tensor, "batch time dim"]:
        emb: Float[torch.Tensor, "batch time neurons dim"] = self.embedder(spikes)
        return self.mix(emb.flatten(2))


def make_split(rate: float, trials: int, seed: int) -> Int[torch.Tensor, "trials time neurons"]:
    g = torch.Generator().manual_seed(seed)
    rates = torch.full((trials, 20, 6), rate)
    return torch.poisson(rates, generator=g).long()


def build_model(train: Int[torch.Tensor, "trials time neurons"], dim: int = 8) -> SpikeCountEmbedding:
    max_spikes = int(train.max())
    return SpikeCountEmbedding(max_spikes, train.shape[-1], dim)


if __name__ == "__main__":
    torch.manual_seed(0)
    train = make_split(rate=1.0, trials=4, seed=0)
    heldout = make_split(rate=3.0, trials=2, seed=1)
    model = build_model(train)
    print("max count train/heldout:", int(train.max()), int(heldout.max()))
    with torch.no_grad():
        print(model(heldout).shape)
