import torch
import torch.nn as nn

CONFIG = {"num_codes": 12, "embed": 16, "hidden": 32, "seq_len": 9, "batch": 4}


class LatentPrior(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.bos = cfg["num_codes"]
        vocab = cfg["num_codes"] + 1
        self.embed = nn.Embedding(vocab, cfg["embed"])
        self.rnn = nn.GRU(cfg["embed"], cfg["hidden"], batch_first=True)
        self.out = nn.Linear(cfg["hidden"], vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.out(h)

    def with_bos(self, codes):
        start = torch.full((codes.shape[0], 1), self.bos, dtype=codes.dtype)
        return torch.cat([start, codes], dim=1)


def code_log_likelihood(prior, codes):
    seq = prior.with_bos(codes)
    logp = prior(seq).log_softmax(dim=-1)
    token_logp = logp[:, :-1].gather(-1, seq[:, 1:].unsqueeze(-1)).squeeze(-1)
    return token_logp.sum(dim=1)


def make_batch(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, cfg["num_codes"], (cfg["batch"], cfg["seq_len"]), generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    prior = LatentPrior(CONFIG)
    codes = make_batch(CONFIG, seed=1)
    with torch.no_grad():
        ll = code_log_likelihood(prior, codes)
        ref = []
        for b in range(codes.shape[0]):
            total = 0.0
            for t in range(codes.shape[1]):
                prefix = prior.with_bos(codes[b : b + 1, :t])
                step = prior(prefix)[0, -1].log_softmax(dim=-1)
                total += float(step[codes[b, t]])
            ref.append(total)
    assert torch.allclose(ll, torch.tensor(ref), atol=1e-4)
    print("ok")
