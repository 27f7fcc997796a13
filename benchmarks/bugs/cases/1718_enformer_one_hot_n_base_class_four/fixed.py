import torch
import torch.nn as nn
import torch.nn.functional as F


def str_to_seq_indices(seq_strs, alphabet):
    return torch.tensor([[alphabet[base] for base in s.upper()] for s in seq_strs])


class AttentionPool(nn.Module):
    def __init__(self, dim, pool_size=2):
        super().__init__()
        self.pool_size = pool_size
        self.to_attn_logits = nn.Conv2d(dim, dim, 1, bias=False)

    def forward(self, x):
        b, d, n = x.shape
        x = x.view(b, d, n // self.pool_size, self.pool_size)
        attn = self.to_attn_logits(x).softmax(dim=-1)
        return (x * attn).sum(dim=-1)


class EnformerStem(nn.Module):
    def __init__(self, dim, num_alphabet=4, conv_kernel=15, pool_size=2):
        super().__init__()
        self.num_alphabet = num_alphabet
        self.conv = nn.Conv1d(num_alphabet, dim, conv_kernel, padding=conv_kernel // 2)
        self.pool = AttentionPool(dim, pool_size)

    def embed(self, x):
        if x.dtype == torch.long:
            wildcard = x == self.num_alphabet  # the Ns in the sequence
            x = F.one_hot(x.clamp(max=self.num_alphabet - 1), num_classes=self.num_alphabet)
            x = x.masked_fill(wildcard[..., None], 0).float()
        return x

    def forward(self, x):
        x = self.embed(x)
        x = self.conv(x.transpose(1, 2))
        return self.pool(x)


def build_stem(cfg):
    return EnformerStem(cfg["dim"], num_alphabet=cfg["num_alphabet"], pool_size=cfg["pool_size"])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"dim": 24, "num_alphabet": 4, "pool_size": 2, "alphabet": {"A": 0, "C": 1, "G": 2, "T": 3, "N": 4}}
    stem = build_stem(cfg)
    reads = ["ACGTNNACGTTGCAAC", "TTGACNGTACGTACGA", "GGGTACCATNACGTAA"]
    seq = str_to_seq_indices(reads, cfg["alphabet"])

    one_hot = stem.embed(seq)
    ref = torch.tensor([[[1.0 if base == c else 0.0 for c in "ACGT"] for base in r] for r in reads])
    assert torch.equal(one_hot, ref)
    assert stem(seq).shape == (3, 24, 8)
    print("ok")
