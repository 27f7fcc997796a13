import torch
import torch.nn as nn


class SampleTopN(nn.Module):
    """Samples the next word of each hypothesis from the renormalised top-n of its distribution.

    Args:
        n (`int`):
            Number of most probable words to sample from; 0 samples from the full vocabulary.
    """

    def __init__(self, n):
        super().__init__()
        self.n = n

    def restrict(self, target_dists):
        """Zero everything but the n most probable words and renormalise.

        Args:
            target_dists (`torch.FloatTensor` of shape `(batch_size * beam_size, vocab_size)`):
                Next-word probabilities.

        Returns:
            `torch.FloatTensor` of the same shape, each row summing to one.
        """
        if self.n == 0:
            return target_dists
        values, indices = torch.topk(target_dists, k=self.n, dim=1, largest=True, sorted=True)
        # keep only the chosen words
        target_dists = torch.scatter(torch.zeros_like(target_dists), 1, indices, values)
        return target_dists / target_dists.sum(1, keepdim=True)

    def forward(self, scores, target_dists, generator=None):
        """Draw one word per row.

        Args:
            scores (`torch.FloatTensor` of shape `(batch_size * beam_size, vocab_size)`):
                Accumulated negative log-probabilities of the extended hypotheses.
            target_dists (`torch.FloatTensor` of shape `(batch_size * beam_size, vocab_size)`):
                Next-word probabilities.

        Returns:
            Tuple of best hypothesis indices `(batch_size * beam_size,)`, word ids
            `(batch_size * beam_size,)` and the selected scores `(batch_size * beam_size, 1)`.
        """
        probs = self.restrict(target_dists)
        best_word_indices = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        values = scores.gather(dim=1, index=best_word_indices.unsqueeze(1))
        best_hyp_indices = torch.arange(best_word_indices.size(0), device=best_word_indices.device)
        return best_hyp_indices, best_word_indices, values


if __name__ == "__main__":
    torch.manual_seed(0)
    sampler = SampleTopN(n=5)
    logits = torch.randn(6, 40) * 3
    dists = logits.softmax(dim=-1)
    restricted = sampler.restrict(dists)

    ref = torch.zeros_like(dists)
    for r in range(dists.size(0)):
        row = dists[r].tolist()
        order = sorted(range(len(row)), key=lambda j: -row[j])[:5]
        total = sum(row[j] for j in order)
        for j in order:
            ref[r, j] = row[j] / total
    assert torch.allclose(restricted, ref, atol=1e-6)

    gen = torch.Generator().manual_seed(1)
    _, words, values = sampler(-dists.log(), dists, generator=gen)
    for r, w in enumerate(words.tolist()):
        assert ref[r, w] > 0
        assert torch.isclose(values[r, 0], -dists[r, w].log())
    print("ok")
