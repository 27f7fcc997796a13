import torch


def gather_feat(feat, ind):
    """feat: (B, H*W, C) flattened head output; ind: (B, K) flat centre indices.

    Returns (B, K, C), the head output at every object centre.
    """
    dim = feat.size(2)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), dim)
    return feat.gather(1, ind)


def tranpose_and_gather_feat(feat, ind):
    """feat: (B, C, H, W) head output; ind: (B, K). Returns (B, K, C)."""
    feat = feat.permute(0, 2, 3, 1).contiguous()
    feat = feat.view(feat.size(0), -1, feat.size(3))
    return gather_feat(feat, ind)


class JDETargetBuilder:
    """Builds the FairMOT centre targets of one frame.

    Args:
        output_h, output_w: size of the output heatmap (input / 4).
        max_objs: number of object slots K in every target tensor.
    """

    def __init__(self, output_h, output_w, max_objs=128):
        self.output_h = output_h
        self.output_w = output_w
        self.max_objs = max_objs

    def __call__(self, labels):
        """labels: (num_objs, 6) rows of [class, track_id, cx, cy, w, h], box
        coordinates normalised to [0, 1].

        Returns a dict of per-slot targets:
            ind: (max_objs,) flat centre index on the output map
            wh: (max_objs, 2) box size in output pixels
            reg: (max_objs, 2) sub-pixel centre offset
            reg_mask: (max_objs,) 1 for a filled slot
            ids: (max_objs,) track identity of the slot
        """
        num_objs = min(labels.shape[0], self.max_objs)
        labels = labels[:num_objs]
        ind = torch.zeros(self.max_objs, dtype=torch.long)
        wh = torch.zeros(self.max_objs, 2)
        reg = torch.zeros(self.max_objs, 2)
        reg_mask = torch.zeros(self.max_objs, dtype=torch.uint8)
        ids = torch.zeros(self.max_objs, dtype=torch.long)

        ct = labels[:, 2:4] * torch.tensor([self.output_w, self.output_h])
        ct[:, 0] = ct[:, 0].clamp(0, self.output_w - 1)
        ct[:, 1] = ct[:, 1].clamp(0, self.output_h - 1)
        ct_int = ct.long()
        size = labels[:, 4:6] * torch.tensor([self.output_w, self.output_h])

        slots = torch.arange(num_objs)
        ind[slots] = ct_int[:, 1] * self.output_w + ct_int[:, 0]
        wh[slots] = size
        reg[slots] = ct - ct_int.float()
        reg_mask[slots] = 1
        ids[slots] = labels[:, 1].long()
        return {"ind": ind, "wh": wh, "reg": reg, "reg_mask": reg_mask, "ids": ids}


if __name__ == "__main__":
    torch.manual_seed(0)
    # a crowded MOT20 frame: 140 pedestrians
    num_objs = 140
    labels = torch.cat([
        torch.zeros(num_objs, 1),
        torch.arange(num_objs, dtype=torch.float).unsqueeze(1),
        torch.rand(num_objs, 2),
        torch.rand(num_objs, 2) * 0.1,
    ], dim=1)
    # MOT20 has more than 128 people in a frame: raise K to 500
    builder = JDETargetBuilder(output_h=152, output_w=272, max_objs=500)
    target = builder(labels)
    id_head = torch.randn(1, 64, 152, 272)
    id_emb = tranpose_and_gather_feat(id_head, target["ind"].unsqueeze(0))

    for k in range(500):
        if k < num_objs:
            cx = min(max(labels[k, 2].item() * 272, 0), 271)
            cy = min(max(labels[k, 3].item() * 152, 0), 151)
            assert target["ind"][k].item() == int(cy) * 272 + int(cx)
            assert target["reg_mask"][k].item() == 1 and target["ids"][k].item() == k
            assert torch.allclose(id_emb[0, k], id_head[0, :, int(cy), int(cx)])
        else:
            assert target["reg_mask"][k].item() == 0 and target["ind"][k].item() == 0
    print("ok")
