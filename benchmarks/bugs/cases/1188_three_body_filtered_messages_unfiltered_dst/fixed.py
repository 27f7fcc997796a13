import math

import torch
import torch.nn as nn


class ThreeBodyUpdate(nn.Module):
    def __init__(self, num_basis, bond_dim, three_body_cutoff):
        super().__init__()
        self.cutoff = three_body_cutoff
        self.num_basis = num_basis
        self.proj = nn.Linear(num_basis, bond_dim)

    def angle_basis(self, cos_theta):
        # cos_theta: [T] -> [T, num_basis]
        k = torch.arange(self.num_basis, dtype=cos_theta.dtype)
        return torch.cos(k * torch.arccos(cos_theta.clamp(-1, 1)).unsqueeze(-1))

    def forward(self, bond_feat, bond_len, triplets, cos_theta):
        # bond_feat: [B, D], bond_len: [B], triplets: [T, 2] (bond ij, bond ik), cos_theta: [T]
        lg_src, lg_dst = triplets[:, 1], triplets[:, 0]
        keep = bond_len[lg_src] < self.cutoff
        lg_src_ns, lg_dst_ns, cos_ns = lg_src[keep], lg_dst[keep], cos_theta[keep]
        envelope = 0.5 * (torch.cos(math.pi * bond_len[lg_src_ns] / self.cutoff) + 1.0)
        msg = self.proj(self.angle_basis(cos_ns)) * envelope.unsqueeze(-1)   # [T_kept, D]
        index = lg_dst_ns.unsqueeze(-1).expand(-1, msg.shape[1])             # [T_kept, D]
        agg = torch.zeros_like(bond_feat).scatter_add_(0, index, msg)        # [B, D]
        return bond_feat + agg


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = ThreeBodyUpdate(num_basis=4, bond_dim=8, three_body_cutoff=3.0)
    bond_feat = torch.randn(5, 8)
    bond_len = torch.tensor([1.1, 2.4, 3.6, 1.9, 2.8])
    triplets = torch.tensor([[0, 1], [0, 2], [1, 0], [1, 3], [2, 4], [3, 1], [4, 2]])
    cos_theta = torch.tensor([0.3, -0.5, 0.3, 0.9, -0.1, 0.9, -0.1])
    with torch.no_grad():
        got = layer(bond_feat, bond_len, triplets, cos_theta)
        ref = bond_feat.clone()
        for t in range(triplets.shape[0]):
            ij, ik = int(triplets[t, 0]), int(triplets[t, 1])
            r = float(bond_len[ik])
            if r >= 3.0:
                continue
            env = 0.5 * (math.cos(math.pi * r / 3.0) + 1.0)
            theta = math.acos(float(cos_theta[t]))
            basis = torch.tensor([math.cos(k * theta) for k in range(4)])
            ref[ij] += layer.proj(basis) * env
    assert torch.allclose(got, ref, atol=1e-5)
    print("ok")
