import torch
import torch.nn as nn
import torch.nn.functional as F


class SegHead(nn.Module):
    def __init__(self, in_ch=3, feat_dim=16, num_classes=5):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, feat_dim, 3, padding=1), nn.ReLU(),
            nn.Conv2d(feat_dim, feat_dim, 3, padding=1), nn.ReLU(),
        )
        self.cls = nn.Conv2d(feat_dim, num_classes, 1)

    def forward(self, img):
        feats = self.body(img)        # (B, D, H, W)
        return feats, self.cls(feats)  # (B, D, H, W), (B, K, H, W)


@torch.no_grad()
def class_prototypes(features, seg, num_classes, ignore_index=255):
    # features: (B, D, H, W)   seg: (B, H, W) labels at feature resolution
    B, D, H, W = features.shape
    seg = seg.reshape(-1)                                              # (B*H*W,)
    feats = features.transpose(1, 3).contiguous().view(B * H * W, D)  # (B*H*W, D)
    keep = seg != ignore_index
    seg, feats = seg[keep], feats[keep]
    sums = features.new_zeros(num_classes, D)                         # (K, D)
    sums.index_add_(0, seg, feats)
    counts = torch.bincount(seg, minlength=num_classes).clamp(min=1)  # (K,)
    return sums / counts[:, None]


def prototype_distill_loss(old_protos, new_protos, present):
    # old/new: (K, D)   present: (K,) bool - classes seen in this batch
    return F.mse_loss(new_protos[present], old_protos[present])


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 5
    model = SegHead(num_classes=num_classes)
    img = torch.randn(2, 3, 6, 10)
    seg = torch.randint(0, num_classes, (2, 6, 10))
    seg[:, 0, :3] = 255
    feats, _ = model(img)
    protos = class_prototypes(feats, seg, num_classes)

    ref = torch.zeros(num_classes, feats.shape[1])
    cnt = torch.zeros(num_classes)
    for b in range(2):
        for h in range(6):
            for w in range(10):
                c = int(seg[b, h, w])
                if c == 255:
                    continue
                ref[c] += feats[b, :, h, w]
                cnt[c] += 1
    ref = ref / cnt.clamp(min=1)[:, None]
    print("max |prototype - per-pixel reference|:", (protos - ref).abs().max().item(),
          "relative error:", ((protos - ref).norm() / ref.norm()).item())
    print("distill loss vs reference prototypes:", prototype_distill_loss(ref, protos, cnt > 0).item())
