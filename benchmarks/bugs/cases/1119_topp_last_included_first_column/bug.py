import torch


class NucleusSampling:
    """Top-p (nucleus) sampling step for a beam-shaped decoder."""

    def __init__(self, sampling_topp: float):
        self.sampling_topp = sampling_topp

    def _sample_topp(self, lprobs):
        # lprobs: (bsz, beam, vocab) log-probabilities
        probs = lprobs.exp()
        sorted_probs, sorted_indices = probs.sort(descending=True)  # (bsz, beam, vocab)

        # tokens whose cumulative mass stays below p
        cumsum_probs = sorted_probs.cumsum(dim=2)                    # (bsz, beam, vocab)
        mask = cumsum_probs.lt(self.sampling_topp)                  # (bsz, beam, vocab)

        # one more token is needed so that the kept mass exceeds p
        cumsum_mask = mask.cumsum(dim=2)                             # (bsz, beam, vocab)
        last_included = cumsum_mask[:, :, :1]                        # (bsz, beam, 1)
        mask = mask.scatter_(2, last_included, True)

        # drop the columns that no row keeps
        max_dim = last_included.max()
        truncated_mask = mask[:, :, : max_dim + 1]
        truncated_probs = sorted_probs[:, :, : max_dim + 1]
        truncated_indices = sorted_indices[:, :, : max_dim + 1]
        trimmed_probs = truncated_probs.masked_fill(~truncated_mask, 0.0)
        return trimmed_probs, truncated_indices

    def step(self, lprobs, generator=None):
        probs, indices = self._sample_topp(lprobs)
        bsz, beam, k = probs.shape
        choice = torch.multinomial(probs.view(-1, k), 1, generator=generator)  # (bsz*beam, 1)
        return indices.view(-1, k).gather(1, choice).view(bsz, beam)


if __name__ == "__main__":
    logits = torch.tensor([[[2.0, 1.5, 1.2, 1.0, 0.2, -1.0, -2.0, -3.0],
                            [0.5, 0.4, 0.3, 0.2, 0.1, 0.0, -0.1, -0.2]]])
    sampler = NucleusSampling(sampling_topp=0.9)
    probs, indices = sampler._sample_topp(torch.log_softmax(logits, dim=-1))
    print("tokens kept per beam:", (probs > 0).sum(-1).tolist())
    print("next tokens:", sampler.step(torch.log_softmax(logits, -1), torch.Generator().manual_seed(0)).tolist())
