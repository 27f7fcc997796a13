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
        _, indices = torch.topk(target_dists, k=self.n, dim=1, largest=True, sorted=True)
        # keep only the chosen words
        target_dists = torch.scatter(torch.zeros_like(target_dists), 1, indices, target_dists)
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
    top_ids = dists.topk(5, dim=1).indices
    top_vals = dists.gather(1, top_ids)
    print("row 0, kept probabilities of its top-5 words:", restricted[0, top_ids[0]])
    print("row 0, expected (renormalised top-5):       ", top_vals[0] / top_vals[0].sum())
    print("most probable word keeps its rank:", torch.equal(restricted.argmax(1), dists.argmax(1)))
    gen = torch.Generator().manual_seed(1)
    _, words, values = sampler(-dists.log(), dists, generator=gen)
    print("sampled words:", words.tolist())
