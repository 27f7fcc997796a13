import torch


def forward_splat(img, flow):
    # img:  [B, C, H, W] source frame
    # flow: [B, 2, H, W] integer displacement (dx, dy) from source to target
    B, C, H, W = img.shape
    ys, xs = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    tx = (xs.unsqueeze(0) + flow[:, 0]).clamp(0, W - 1)           # [B, H, W]
    ty = (ys.unsqueeze(0) + flow[:, 1]).clamp(0, H - 1)           # [B, H, W]
    target = (ty * W + tx).view(B, 1, H * W).expand(B, C, H * W)  # [B, C, H*W]

    out = torch.zeros(B, C, H * W)
    out.scatter_add_(2, target, img.reshape(B, C, H * W))         # [B, C, H*W]
    hit = torch.zeros(B, 1, H * W)
    hit.scatter_add_(2, target[:, :1], torch.ones(B, 1, H * W))
    out = out / hit.clamp(min=1)
    return out.view(B, C, H, W), hit.view(B, 1, H, W)


if __name__ == "__main__":
    torch.manual_seed(0)
    img = torch.rand(1, 3, 4, 6)
    flow = torch.zeros(1, 2, 4, 6, dtype=torch.long)
    flow[0, 0, :, 3:] = -1          # right half moves one pixel left -> column 2 receives two pixels
    warped, hit = forward_splat(img, flow)
    B, C, H, W = img.shape
    acc = {}
    for y in range(H):
        for x in range(W):
            tx = min(max(x + int(flow[0, 0, y, x]), 0), W - 1)
            ty = min(max(y + int(flow[0, 1, y, x]), 0), H - 1)
            acc.setdefault((ty, tx), []).append([float(img[0, c, y, x]) for c in range(C)])
    for y in range(H):
        for x in range(W):
            vals = acc.get((y, x), [])
            assert int(hit[0, 0, y, x]) == len(vals)
            for c in range(C):
                ref = sum(v[c] for v in vals) / len(vals) if vals else 0.0
                assert abs(float(warped[0, c, y, x]) - ref) < 1e-6
    print("ok")
