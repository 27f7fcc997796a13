import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class FrequencyTracker(nn.Module):
    """Decayed occurrence counts of hashed sparse feature ids (for low-frequency id filtering)."""

    def __init__(self, num_buckets: int, decay: float = 0.99):
        super().__init__()
        self.num_buckets = num_buckets
        self.decay = decay
        self.register_buffer("counts", torch.zeros(num_buckets))

    def bucket(self, raw_ids: Int[Tensor, " n"]) -> Int[Tensor, " n"]:
        return (raw_ids * 2654435761) % self.num_buckets

    @torch.no_grad()
    def update(self, raw_ids: Int[Tensor, " n"], batch_weight: Float[Tensor, " 1"]) -> None:
        ids = self.bucket(raw_ids)
        self.counts.mul_(self.decay)
        self.counts.index_add_(0, ids, batch_weight.expand(ids.size(0)))

    def frequency(self, raw_ids: Int[Tensor, " n"]) -> Float[Tensor, " n"]:
        return self.counts[self.bucket(raw_ids)]


def sampler_weight(sampling_rate: float) -> Float[Tensor, " 1"]:
    # negatives are down-sampled upstream; every example in the batch carries 1 / rate
    return torch.tensor([1.0 / sampling_rate])


if __name__ == "__main__":
    torch.manual_seed(0)
    tracker = FrequencyTracker(num_buckets=1000)
    ref = [0.0] * 1000
    for step in range(3):
        raw_ids = torch.randint(0, 50, (64,))
        tracker.update(raw_ids, sampler_weight(0.25))
        ref = [c * 0.99 for c in ref]
        for r in raw_ids.tolist():
            ref[(r * 2654435761) % 1000] += 4.0
    assert torch.allclose(tracker.counts, torch.tensor(ref), atol=1e-4)
    probe = torch.tensor([3, 17, 42])
    assert tracker.frequency(probe).tolist() == [tracker.counts[(p * 2654435761) % 1000].item() for p in probe.tolist()]
    print("ok")
