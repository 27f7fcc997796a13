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
    out.scatter_(2, target, img.reshape(B, C, H * W))             # [B, C, H*W]
    hit = torch.zeros(B, 1, H * W)
    hit.scatter_(2, target[:, :1], 1.0)
    return out.view(B, C, H, W), hit.view(B, 1, H, W)


if __name__ == "__main__":
    torch.manual_seed(0)
    img = torch.rand(1, 3, 4, 6)
    flow = torch.zeros(1, 2, 4, 6, dtype=torch.long)
    flow[0, 0, :, 3:] = -1          # right half moves one pixel left -> column 2 receives two pixels
    warped, hit = forward_splat(img, flow)
    print("target (0, 2):", warped[0, :, 0, 2].tolist())
    print("sources      :", img[0, :, 0, 2].tolist(), img[0, :, 0, 3].tolist())
