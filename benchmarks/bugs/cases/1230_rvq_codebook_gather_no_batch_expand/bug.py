import torch
import torch.nn as nn


class ResidualVQ(nn.Module):
    def __init__(self, num_quantizers=4, codebook_size=256, dim=32):
        super().__init__()
        # codebooks: [Q, K, D]
        self.codebooks = nn.Parameter(torch.randn(num_quantizers, codebook_size, dim))

    def get_codes_from_indices(self, indices):
        # indices: [B, Q', T] with Q' <= Q (e.g. only the semantic quantizers)
        b, q, t = indices.shape
        d = self.codebooks.shape[-1]
        codebooks = self.codebooks[:q].unsqueeze(0)                      # [1, Q', K, D]
        gather_indices = indices.unsqueeze(-1).expand(b, q, t, d)        # [B, Q', T, D]
        all_codes = codebooks.gather(2, gather_indices)                   # [B, Q', T, D]
        return all_codes

    def decode(self, indices):
        # sum of the selected code vectors over quantizers -> [B, T, D]
        return self.get_codes_from_indices(indices).sum(dim=1)


class Codec(nn.Module):
    def __init__(self, n_q_semantic=1):
        super().__init__()
        self.n_q_semantic = n_q_semantic
        self.rvq_first = ResidualVQ(num_quantizers=1)
        self.rvq_rest = ResidualVQ(num_quantizers=7)

    def decode(self, codes):
        # codes: [B, 8, T]
        z = self.rvq_first.decode(codes[:, : self.n_q_semantic])
        return z + self.rvq_rest.decode(codes[:, self.n_q_semantic:])


if __name__ == "__main__":
    torch.manual_seed(0)
    codec = Codec()
    codes = torch.randint(0, 256, (8, 8, 50))  # a batch of 8 utterances
    with torch.no_grad():
        print(codec.decode(codes).shape)
