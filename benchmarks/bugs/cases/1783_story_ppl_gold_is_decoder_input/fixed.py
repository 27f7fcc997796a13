import math
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, d_model)
        self.rnn = nn.GRU(d_model, d_model)
        self.generator = nn.Sequential(nn.Linear(d_model, vocab_size), nn.LogSoftmax(dim=-1))

    def forward(self, tgt_in):
        out, _ = self.rnn(self.embeddings(tgt_in))
        return self.generator(out)


def story_nll(model, tgt, pad_idx):
    tgt_in = tgt[:-1]
    log_probs = model(tgt_in)
    gold = tgt[1:]
    non_pad = gold.ne(pad_idx)
    gold_log_probs = log_probs.gather(2, gold.unsqueeze(2)).squeeze(2)
    nll = -(gold_log_probs * non_pad).sum()
    return nll.item(), int(non_pad.sum())


def reference_nll(model, tgt, pad_idx):
    with torch.no_grad():
        log_probs = model(tgt[:-1])
    total, count = 0.0, 0
    for t in range(tgt.shape[0] - 1):
        for b in range(tgt.shape[1]):
            nxt = int(tgt[t + 1, b])
            if nxt == pad_idx:
                continue
            total -= log_probs[t, b, nxt].item()
            count += 1
    return total, count


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder(vocab_size=50, d_model=32)
    tgt = torch.randint(2, 50, (12, 4))
    tgt[9:, 1] = 1
    tgt[7:, 3] = 1
    with torch.no_grad():
        nll, n_words = story_nll(model, tgt, pad_idx=1)
    ref_nll, ref_words = reference_nll(model, tgt, pad_idx=1)
    assert n_words == ref_words
    assert abs(nll - ref_nll) < 1e-3 * max(1.0, abs(ref_nll)), (nll, ref_nll)
    print("ok")
