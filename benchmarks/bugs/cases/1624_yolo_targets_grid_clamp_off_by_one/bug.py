import torch
import torch.nn as nn


class YoloTargetBuilder:
    def __init__(self, anchors, strides, anchor_t=4.0):
        # anchors: [nl, na, 2] in pixels, strides: [nl]
        self.anchors = anchors
        self.strides = strides
        self.anchor_t = anchor_t
        self.nl, self.na = anchors.shape[:2]

    def __call__(self, preds, targets):
        # preds: list of [B, na, ny, nx, 5 + nc]
        # targets: [nt, 6] = (image, class, x, y, w, h), normalized xywh
        indices, tbox, tcls = [], [], []
        nt = targets.shape[0]
        ai = torch.arange(self.na).view(self.na, 1).repeat(1, nt)  # [na, nt]
        t_all = torch.cat((targets.repeat(self.na, 1, 1), ai[..., None].float()), 2)  # [na, nt, 7]
        for i, pi in enumerate(preds):
            ny, nx = pi.shape[2], pi.shape[3]
            scale = torch.tensor([1, 1, nx, ny, nx, ny, 1], dtype=torch.float32)
            t = t_all * scale
            anchors = self.anchors[i] / self.strides[i]  # [na, 2] in grid units
            ratio = t[..., 4:6] / anchors[:, None]  # [na, nt, 2]
            keep = torch.max(ratio, 1.0 / ratio).max(2)[0] < self.anchor_t  # [na, nt]
            t = t[keep]  # [m, 7]

            b, c = t[:, :2].long().T
            gxy = t[:, 2:4]
            gij = gxy.long()
            gi, gj = gij.T
            a = t[:, 6].long()
            indices.append((b, a, gj.clamp_(0, ny), gi.clamp_(0, nx)))
            tbox.append(torch.cat((gxy - gij, t[:, 4:6]), 1))
            tcls.append(c)
        return indices, tbox, tcls


class YoloObjLoss(nn.Module):
    def __init__(self, builder):
        super().__init__()
        self.builder = builder
        self.bce = nn.BCEWithLogitsLoss()

    def forward(self, preds, targets):
        indices, tbox, tcls = self.builder(preds, targets)
        loss = preds[0].new_zeros(())
        matched = []
        for pi, (b, a, gj, gi) in zip(preds, indices):
            tobj = torch.zeros_like(pi[..., 4])  # [B, na, ny, nx]
            ps = pi[b, a, gj, gi]  # [m, 5 + nc]
            matched.append(ps)
            tobj[b, a, gj, gi] = 1.0
            loss = loss + self.bce(pi[..., 4], tobj)
        return loss, matched


def make_head_outputs(batch, na, nc, sizes):
    return [torch.randn(batch, na, s, s, 5 + nc) for s in sizes]


if __name__ == "__main__":
    torch.manual_seed(0)
    anchors = torch.tensor([[[10., 13.], [16., 30.], [33., 23.]],
                            [[30., 61.], [62., 45.], [59., 119.]]])
    strides = torch.tensor([8., 16.])
    preds = make_head_outputs(batch=2, na=3, nc=4, sizes=[20, 10])
    targets = torch.tensor([
        [0, 1, 0.40, 0.55, 0.10, 0.20],
        [0, 3, 0.73, 0.21, 0.30, 0.25],
        [1, 0, 1.00, 0.50, 0.08, 0.12],  # box clipped at the right border by the mosaic crop
        [1, 2, 0.12, 0.99, 0.06, 0.05],
    ])
    criterion = YoloObjLoss(YoloTargetBuilder(anchors, strides))
    loss, matched = criterion(preds, targets)
    print("loss:", loss.item())
