import torch
import torch.nn as nn

PAD_ID = 0


class BatchScorer(nn.Module):
    """Scores given target sentences under a translation model (forced decoding)."""

    def __init__(self, length_alpha=1.0, length_beta=0.0, score_neglogprob=True):
        super().__init__()
        self.length_alpha = length_alpha
        self.length_beta = length_beta
        self.score_neglogprob = score_neglogprob

    def length_penalty(self, lengths):
        # lengths: (batch_size, 1)
        return ((self.length_beta + lengths) / (self.length_beta + 1.0)) ** self.length_alpha

    def forward(self, logits, labels):
        # logits: (batch_size, target_seq_len, vocab_size)
        # labels: (batch_size, target_seq_len)
        logprobs = logits.log_softmax(dim=-1)

        # select the label log probability
        # token_scores: (batch_size, target_seq_len)
        token_scores = logprobs.gather(dim=-1, index=labels.unsqueeze(-1)).squeeze()
        if self.score_neglogprob:
            token_scores = -token_scores

        # scores: (batch_size, 1)
        scores = token_scores.masked_fill_(labels == PAD_ID, 0.0).sum(dim=-1, keepdim=True)
        lengths = (labels != PAD_ID).sum(dim=-1, keepdim=True).float()
        return scores / self.length_penalty(lengths)


def iterate_batches(num_sentences, batch_size, max_len, vocab_size, generator):
    for start in range(0, num_sentences, batch_size):
        size = min(batch_size, num_sentences - start)
        labels = torch.randint(1, vocab_size, (size, max_len), generator=generator)
        lens = torch.randint(2, max_len + 1, (size,), generator=generator)
        labels[torch.arange(max_len)[None, :] >= lens[:, None]] = PAD_ID
        logits = torch.randn(size, max_len, vocab_size, generator=generator)
        yield logits, labels


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    scorer = BatchScorer()
    all_scores = []
    # 9 sentences in batches of 4: the last batch holds a single sentence
    for logits, labels in iterate_batches(9, 4, 7, 50, gen):
        all_scores.append(scorer(logits, labels))
    print("scores:", torch.cat(all_scores).squeeze(-1))
