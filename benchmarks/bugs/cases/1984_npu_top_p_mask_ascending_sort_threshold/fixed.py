from dataclasses import dataclass, field
from typing import Optional

import torch
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class SamplingMetadata:
    temperature: Optional[Float[Tensor, "num_reqs"]]
    top_p: Optional[Float[Tensor, "num_reqs"]]
    top_k: Optional[Int[Tensor, "num_reqs"]] = None
    all_greedy: bool = False
    all_random: bool = True
    generators: dict = field(default_factory=dict)


def random_sample(probs: Float[Tensor, "num_reqs vocab"], generators: dict) -> Int[Tensor, "num_reqs"]:
    q = torch.empty_like(probs).exponential_()
    return probs.div_(q).argmax(dim=-1).view(-1)


class Sampler:
    def greedy_sample(self, logits: Float[Tensor, "num_reqs vocab"]) -> Int[Tensor, "num_reqs"]:
        return logits.argmax(dim=-1).view(-1)

    def sample(self, logits: Float[Tensor, "num_reqs vocab"], sampling_metadata: SamplingMetadata):
        assert not (sampling_metadata.all_greedy and sampling_metadata.all_random)
        if sampling_metadata.all_greedy:
            return self.greedy_sample(logits), None

        # Currently, the NPU path only supports top_p sampling.
        sorted_logits: Float[Tensor, "num_reqs vocab"]
        sorted_indices: Int[Tensor, "num_reqs vocab"]
        sorted_logits, sorted_indices = torch.sort(logits, descending=False, dim=-1)
        sorted_probs = self._rbln_top_p_sample_only(sorted_logits, sampling_metadata)
        # scatter later to avoid graph breaking on NPU
        probs: Float[Tensor, "num_reqs vocab"] = sorted_probs.scatter(1, sorted_indices, sorted_probs)
        return random_sample(probs.clone(), sampling_metadata.generators), probs

    def _rbln_top_p_sample_only(
        self, sorted_logits: Float[Tensor, "num_reqs vocab"], sampling_metadata: SamplingMetadata
    ) -> Float[Tensor, "num_reqs vocab"]:
        if sampling_metadata.temperature is not None:
            sorted_logits = sorted_logits.div_(sampling_metadata.temperature.unsqueeze(-1))

        # Convert to probabilities
        sorted_probs = torch.softmax(sorted_logits, dim=-1)
        # Calculate cumulative probabilities
        cumsum_probs = torch.cumsum(sorted_probs, dim=-1)
        # Ascending sort: drop the low tail whose cumulative probability stays within 1 - top_p
        top_p_threshold: Float[Tensor, "num_reqs 1"] = sampling_metadata.top_p.unsqueeze(-1)
        mask = cumsum_probs <= 1 - top_p_threshold

        # Always keep at least the first token
        mask[..., -1] = False

        sorted_logits.masked_fill_(mask, float("-inf"))
        sorted_probs = torch.softmax(sorted_logits, dim=-1)
        return sorted_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    num_reqs, vocab_size = 3, 64
    logits = torch.randn(num_reqs, vocab_size)
    metadata = SamplingMetadata(
        temperature=torch.full((num_reqs,), 0.7),
        top_p=torch.tensor([0.9, 0.95, 0.8]),
    )
    sampler = Sampler()
    tokens, probs = sampler.sample(logits.clone(), metadata)
    # reference: walk each row from the least likely token, dropping tokens while the dropped
    # mass stays within 1 - top_p (the most likely token is always kept), then renormalize
    full = torch.softmax(logits / 0.7, dim=-1)
    for i in range(num_reqs):
        p = metadata.top_p[i].item()
        order = sorted(range(vocab_size), key=lambda j: full[i, j].item())
        dropped, running = set(), 0.0
        for j in order[:-1]:
            running += full[i, j].item()
            if running <= 1 - p:
                dropped.add(j)
        kept_mass = sum(full[i, j].item() for j in range(vocab_size) if j not in dropped)
        assert kept_mass >= p - 1e-5
        for j in range(vocab_size):
            expected = 0.0 if j in dropped else full[i, j].item() / kept_mass
            assert abs(probs[i, j].item() - expected) < 1e-5, (i, j)
        assert probs[i, tokens[i]] > 0
    print("ok")
