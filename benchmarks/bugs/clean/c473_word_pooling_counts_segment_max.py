"""Sub-word -> word pooling for a tagger, with term counts and a per-sentence max readout.

Shapes: subword states (S, H); word_ids (S,) in [0, W); sentence_ids (W,) in [0, B).
"""
import torch
from torch import nn


class WordPoolingTagger(nn.Module):
    def __init__(self, hidden: int, proj: int, num_tags: int, vocab: int):
        super().__init__()
        self.proj = nn.Linear(hidden, proj)
        self.tagger = nn.Linear(proj, num_tags)
        self.vocab = vocab

    def pool_words(self, states, word_ids, num_words):
        projected = torch.tanh(self.proj(states))                      # (S, P)
        sums = projected.new_zeros(num_words, projected.shape[1])      # (W, P)
        sums.index_add_(0, word_ids, projected)
        counts = torch.bincount(word_ids, minlength=num_words).clamp_min(1)
        return sums / counts.unsqueeze(1).to(sums.dtype)

    def sentence_max(self, word_vecs, sentence_ids, num_sentences):
        idx = sentence_ids.unsqueeze(1).expand(-1, word_vecs.shape[1])  # (W, P)
        out = word_vecs.new_zeros(num_sentences, word_vecs.shape[1])
        return out.scatter_reduce(0, idx, word_vecs, reduce="amax", include_self=False)

    def term_counts(self, token_ids, pad_id=0):
        # token_ids: (B, L) padded with pad_id -> counts (B, V)
        counts = torch.zeros(token_ids.shape[0], self.vocab)
        counts.scatter_add_(1, token_ids, torch.ones(token_ids.shape))
        counts[:, pad_id] = 0
        return counts

    def gold_tag_logprob(self, word_vecs, gold_tags):
        logp = torch.log_softmax(self.tagger(word_vecs), dim=-1)       # (W, T)
        return logp.gather(1, gold_tags.unsqueeze(1)).squeeze(1)       # (W,)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = WordPoolingTagger(hidden=12, proj=6, num_tags=4, vocab=10)
    word_ids = torch.tensor([0, 0, 1, 2, 2, 2, 3, 4, 5, 5], dtype=torch.int32).long()
    states = torch.randn(word_ids.shape[0], 12)
    sentence_ids = torch.tensor([0, 0, 0, 1, 1, 1])
    gold = torch.tensor([1, 0, 3, 2, 2, 1])
    tokens = torch.tensor([[3, 3, 5, 3, 0, 0], [7, 1, 7, 7, 9, 2]])

    words = model.pool_words(states, word_ids, num_words=6)
    sent = model.sentence_max(words, sentence_ids, num_sentences=2)
    counts = model.term_counts(tokens)
    lp = model.gold_tag_logprob(words, gold)

    projected = torch.tanh(model.proj(states))
    for w in range(6):
        rows = [projected[i] for i in range(10) if int(word_ids[i]) == w]
        assert torch.allclose(words[w], sum(rows) / len(rows), atol=1e-6)
    for s in range(2):
        for c in range(6):
            vals = [words[w, c].item() for w in range(6) if int(sentence_ids[w]) == s]
            assert abs(sent[s, c].item() - max(vals)) < 1e-6
    for b in range(2):
        for v in range(10):
            expected = 0 if v == 0 else sum(1 for t in tokens[b].tolist() if t == v)
            assert counts[b, v].item() == expected
    full = torch.log_softmax(model.tagger(words), dim=-1)
    for w in range(6):
        assert lp[w].item() == full[w, int(gold[w])].item()
    print("ok")
