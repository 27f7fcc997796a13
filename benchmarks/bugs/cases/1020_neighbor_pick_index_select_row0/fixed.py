import torch
import torch.nn as nn


def build_ring_neighbours(num_verts, num_neigh):
    offsets = torch.arange(num_neigh) - num_neigh // 2
    return (torch.arange(num_verts).unsqueeze(1) + offsets.unsqueeze(0)) % num_verts


class ParserHead(nn.Module):
    def __init__(self, feat_dim, num_neigh, layer_neigh):
        super().__init__()
        self.score = nn.Linear(feat_dim, num_neigh)
        self.register_buffer("layer_neigh", layer_neigh)

    def forward(self, vert_feats, garment_verts):
        weights_from_net = self.score(vert_feats)
        current_argmax = torch.argmax(weights_from_net, axis=2)
        bs = vert_feats.shape[0]
        idx = torch.gather(self.layer_neigh.unsqueeze(0).expand(bs, -1, -1), 2, current_argmax.unsqueeze(2)).squeeze(2)
        snapped = torch.stack([garment_verts[i, idx[i]] for i in range(bs)])
        return snapped, idx


class Trainer:
    def __init__(self, bs, num_verts, num_neigh, feat_dim):
        self.bs = bs
        self.model = ParserHead(feat_dim, num_neigh, build_ring_neighbours(num_verts, num_neigh))

    def step(self, vert_feats, garment_verts):
        snapped, idx = self.model(vert_feats, garment_verts)
        return snapped, idx


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(bs=2, num_verts=12, num_neigh=4, feat_dim=8)
    vert_feats = torch.randn(2, 12, 8)
    garment_verts = torch.randn(2, 12, 3)
    snapped, idx = trainer.step(vert_feats, garment_verts)
    weights = trainer.model.score(vert_feats)
    neigh = trainer.model.layer_neigh
    for b in range(2):
        for v in range(12):
            k = max(range(4), key=lambda j: weights[b, v, j].item())
            assert int(idx[b, v]) == int(neigh[v, k])
            assert torch.equal(snapped[b, v], garment_verts[b, int(neigh[v, k])])
    print("ok")
