import torch
import torch.nn as nn

cfg = {"batch": 2, "depth": 3, "height": 4, "width": 4, "pt_feats": 7, "vfe_out": 16}


class VoxelFeatureEncoder(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.fc = nn.Linear(cin, cout)

    def forward(self, voxels):
        pointwise = torch.relu(self.fc(voxels))
        return pointwise.max(dim=1).values


class VoxelNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.vfe = VoxelFeatureEncoder(cfg["pt_feats"], cfg["vfe_out"])

    def voxel_indexing(self, sparse_features, coords):
        c = self.cfg
        dense_feature = torch.zeros(c["vfe_out"], c["batch"], c["depth"], c["height"], c["width"])
        dense_feature[:, coords[:, 0], coords[:, 1], coords[:, 2], coords[:, 3]] = sparse_features.t()
        return dense_feature.transpose(0, 1)

    def forward(self, voxel_features, voxel_coords):
        vwfs = self.vfe(voxel_features)
        return self.voxel_indexing(vwfs, voxel_coords)


def load_voxels(cfg, n_voxels, max_pts=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n_voxels, max_pts, cfg["pt_feats"], generator=g)
    flat = torch.randperm(cfg["batch"] * cfg["depth"] * cfg["height"] * cfg["width"], generator=g)[:n_voxels]
    b, rem = flat // (cfg["depth"] * cfg["height"] * cfg["width"]), flat % (cfg["depth"] * cfg["height"] * cfg["width"])
    d, rem = rem // (cfg["height"] * cfg["width"]), rem % (cfg["height"] * cfg["width"])
    coords = torch.stack([b, d, rem // cfg["width"], rem % cfg["width"]], dim=1)
    return feats, coords


if __name__ == "__main__":
    torch.manual_seed(0)
    net = VoxelNet(cfg)
    feats, coords = load_voxels(cfg, n_voxels=10)
    with torch.no_grad():
        out = net(feats, coords)
        vw = net.vfe(feats)
    ref = torch.zeros(cfg["batch"], cfg["vfe_out"], cfg["depth"], cfg["height"], cfg["width"])
    for i in range(coords.size(0)):
        b, d, h, w = coords[i].tolist()
        for ch in range(cfg["vfe_out"]):
            ref[b, ch, d, h, w] = vw[i, ch]
    assert torch.equal(out, ref)
    print("ok")
