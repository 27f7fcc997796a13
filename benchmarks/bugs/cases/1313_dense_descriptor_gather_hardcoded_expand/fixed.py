import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyXFeat(nn.Module):
    def __init__(self, in_ch=1, dim=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(in_ch, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 24, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.descriptor_head = nn.Conv2d(24, dim, 1)
        self.heatmap_head = nn.Conv2d(24, 1, 1)

    def forward(self, x):
        feats = self.backbone(x)
        return F.normalize(self.descriptor_head(feats), dim=1), torch.sigmoid(self.heatmap_head(feats))

    @torch.inference_mode()
    def _extract_dense(self, x, top_k=64):
        M1, K1h = self.forward(x)
        B, C, _H1, _W1 = M1.shape
        xy1 = torch.stack(torch.meshgrid(torch.arange(_W1), torch.arange(_H1), indexing="xy"), -1)
        xy1 = xy1.reshape(1, -1, 2).expand(B, -1, -1).float() * 4.0
        M1 = M1.permute(0, 2, 3, 1).reshape(B, -1, C)
        H1 = K1h.permute(0, 2, 3, 1).reshape(B, -1)
        _, top_k_idx = torch.topk(H1, k=min(H1.shape[1], top_k), dim=-1)
        feats = torch.gather(M1, 1, top_k_idx[..., None].expand(-1, -1, C))
        mkpts = torch.gather(xy1, 1, top_k_idx[..., None].expand(-1, -1, 2))
        return mkpts, feats


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyXFeat(in_ch=1, dim=32).eval()
    images = torch.rand(2, 1, 64, 80)
    mkpts, feats = model._extract_dense(images, top_k=50)
    M1, K1h = model(images)
    for b in range(2):
        scores = K1h[b, 0].reshape(-1)
        idx = torch.topk(scores, 50).indices
        for j, i in enumerate(idx.tolist()):
            r, c = divmod(i, M1.shape[3])
            assert torch.allclose(feats[b, j], M1[b, :, r, c])
            assert mkpts[b, j].tolist() == [c * 4.0, r * 4.0]
    print("ok")
