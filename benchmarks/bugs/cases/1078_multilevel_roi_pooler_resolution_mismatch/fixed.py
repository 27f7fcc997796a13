import torch
import torch.nn.functional as F

CFG = {
    "mask_head": {"resolution": (16, 16)},
    "seq_head": {"resolution": (16, 64)},
    "scales": (0.25, 0.125),
}


def crop_and_resize(feature, rois, scale, size):
    out = []
    for b, x0, y0, x1, y1 in rois.tolist():
        xs, ys = int(x0 * scale), int(y0 * scale)
        xe, ye = max(int(x1 * scale), xs + 1), max(int(y1 * scale), ys + 1)
        patch = feature[int(b), :, ys:ye, xs:xe].unsqueeze(0)
        out.append(F.interpolate(patch, size=size, mode="bilinear", align_corners=False))
    return torch.cat(out)


class LevelPooler:
    def __init__(self, head_cfg, scales):
        self.size = head_cfg["resolution"]
        self.scales = scales

    def assign_levels(self, rois):
        area = (rois[:, 3] - rois[:, 1]) * (rois[:, 4] - rois[:, 2])
        return (area > 32 * 32).long()

    def __call__(self, features, rois, out_size):
        levels = self.assign_levels(rois)
        result = features[0].new_zeros(len(rois), features[0].size(1), *out_size)
        for lvl, (feat, scale) in enumerate(zip(features, self.scales)):
            idx = (levels == lvl).nonzero().squeeze(1)
            if idx.numel():
                result[idx] = crop_and_resize(feat, rois[idx], scale, self.size)
        return result


def seq_head_inputs(cfg, features, rois):
    pooler = LevelPooler(cfg["seq_head"], cfg["scales"])
    return pooler(features, rois, cfg["seq_head"]["resolution"])


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = [torch.randn(2, 8, 64, 64), torch.randn(2, 8, 32, 32)]
    rois = torch.tensor([[0, 10.0, 12, 60, 30], [1, 40, 40, 200, 90], [0, 5, 5, 20, 18]])
    x = seq_head_inputs(CFG, feats, rois)
    assert x.shape == (3, 8, 16, 64)
    for i in range(3):
        r = rois[i]
        lvl = 1 if float((r[3] - r[1]) * (r[4] - r[2])) > 32 * 32 else 0
        ref = crop_and_resize(feats[lvl], r.unsqueeze(0), CFG["scales"][lvl], (16, 64))[0]
        assert torch.allclose(x[i], ref)
    print("ok")
