"""Batch statistics for a sequence tagger: masked per-token picks, tag co-occurrence, segment maxima."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

IGNORE = -100
NUM_TAGS = 6
MAX_LEN = 12
PAD_ID = 1


def collate(samples):
    tokens = pad_sequence([s[0] for s in samples], batch_first=True, padding_value=PAD_ID)
    tags = pad_sequence([s[1] for s in samples], batch_first=True, padding_value=IGNORE)
    return tokens, tags


class TinyTagger(nn.Module):
    def __init__(self, vocab=40, dim=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=PAD_ID)
        # positions are offset by PAD_ID + 1, so the table holds MAX_LEN + PAD_ID + 1 rows
        self.pos = nn.Embedding(MAX_LEN + PAD_ID + 1, dim, padding_idx=PAD_ID)
        self.out = nn.Linear(dim, NUM_TAGS)

    def forward(self, tokens):
        mask = tokens.ne(PAD_ID).long()
        positions = torch.cumsum(mask, dim=1) * mask + PAD_ID
        return self.out(self.tok(tokens) + self.pos(positions))  # [B, T, K]


def token_logprobs(logits, tags):
    # logits: [B, T, K], tags: [B, T] with IGNORE at padding
    valid = tags.ne(IGNORE)
    safe = tags.masked_fill(~valid, 0)
    logp = logits.log_softmax(dim=-1)
    picked = logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)  # [B, T]
    return picked * valid, valid


def tag_bigram_counts(tags):
    # tags: [B, T]; counts[a, b] = number of adjacent (a, b) pairs among real tokens
    prev, nxt = tags[:, :-1].reshape(-1), tags[:, 1:].reshape(-1)
    keep = prev.ne(IGNORE) & nxt.ne(IGNORE)
    counts = torch.zeros(NUM_TAGS, NUM_TAGS)
    counts.index_put_((prev[keep], nxt[keep]), torch.ones(int(keep.sum())), accumulate=True)
    return counts


def max_score_per_tag(scores, tags):
    # scores: [B, T], tags: [B, T] -> [K] max score of the tokens carrying each tag
    valid = tags.ne(IGNORE)
    out = torch.full((NUM_TAGS,), float("-inf"))
    return out.scatter_reduce(0, tags[valid], scores[valid], reduce="amax", include_self=False)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    lengths = [MAX_LEN, 7, 3]
    samples = [(torch.randint(2, 40, (n,), generator=g), torch.randint(0, NUM_TAGS, (n,), generator=g)) for n in lengths]
    tokens, tags = collate(samples)
    model = TinyTagger()
    with torch.no_grad():
        logits = model(tokens)
    picked, valid = token_logprobs(logits, tags)
    counts = tag_bigram_counts(tags)
    maxima = max_score_per_tag(picked, tags)

    ref_counts = [[0.0] * NUM_TAGS for _ in range(NUM_TAGS)]
    ref_max = [float("-inf")] * NUM_TAGS
    for b, (_, t) in enumerate(samples):
        for i in range(len(t)):
            lp = float(torch.log_softmax(logits[b, i], -1)[int(t[i])])
            assert abs(float(picked[b, i]) - lp) < 1e-5
            ref_max[int(t[i])] = max(ref_max[int(t[i])], lp)
            if i + 1 < len(t):
                ref_counts[int(t[i])][int(t[i + 1])] += 1
        assert not valid[b, len(t):].any()
    assert torch.equal(counts, torch.tensor(ref_counts))
    assert all((m == r) or abs(m - r) < 1e-5 for m, r in zip(maxima.tolist(), ref_max))
    print("ok")
