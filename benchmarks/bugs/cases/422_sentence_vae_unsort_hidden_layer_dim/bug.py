import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class SentenceEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embedding = nn.Embedding(cfg["vocab_size"], cfg["embed_size"], padding_idx=0)
        self.rnn = nn.GRU(cfg["embed_size"], cfg["hidden_size"], batch_first=True,
                          bidirectional=cfg["bidirectional"], num_layers=cfg["num_layers"])
        self.hidden_factor = (2 if cfg["bidirectional"] else 1) * cfg["num_layers"]
        self.to_mean = nn.Linear(cfg["hidden_size"] * self.hidden_factor, cfg["latent_size"])

    def forward(self, input_sequence, length):
        sorted_lengths, sorted_idx = torch.sort(length, descending=True)
        input_sequence = input_sequence[sorted_idx]
        packed = pack_padded_sequence(self.embedding(input_sequence), sorted_lengths.tolist(),
                                      batch_first=True)
        _, hidden = self.rnn(packed)
        _, reversed_idx = torch.sort(sorted_idx)
        hidden = hidden.index_select(0, reversed_idx)
        hidden = hidden.transpose(0, 1).reshape(input_sequence.size(0), -1)
        return self.to_mean(hidden)


def make_batch(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(2, cfg["max_len"] + 1, (cfg["batch_size"],), generator=g)
    tokens = torch.randint(1, cfg["vocab_size"], (cfg["batch_size"], cfg["max_len"]), generator=g)
    tokens = tokens * (torch.arange(cfg["max_len"]) < lengths[:, None])
    return tokens, lengths


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = dict(vocab_size=50, embed_size=8, hidden_size=12, latent_size=4, bidirectional=True,
               num_layers=1, max_len=7, batch_size=6)
    encoder = SentenceEncoder(cfg)
    tokens, lengths = make_batch(cfg)
    z_mean = encoder(tokens, lengths)
    print("z_mean:", tuple(z_mean.shape))
