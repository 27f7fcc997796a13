import torch
import torch.nn as nn


class ChannelReducer(nn.Module):
    """Reduce teacher channels to the student width with absolute max pooling over channel groups."""

    def __init__(self, student_channels, teacher_channels):
        super().__init__()
        self.sc = student_channels
        self.groups = teacher_channels // student_channels

    def forward(self, t_feat):
        b, tc, h, w = t_feat.shape
        t = t_feat.reshape(b, self.groups, self.sc, h * w).transpose(1, 2)
        t_inds = torch.argmax(t.abs(), dim=2)
        t = t.gather(2, t_inds.unsqueeze(2))
        return t.reshape(b, self.sc, h, w)


def distill_loss(student_feat, teacher_feat, reducer):
    return ((student_feat - reducer(teacher_feat)) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    reducer = ChannelReducer(student_channels=4, teacher_channels=12)
    teacher = torch.randn(2, 12, 3, 3) * 2.0
    student = torch.randn(2, 4, 3, 3)
    pooled = reducer(teacher)
    for bi in range(2):
        for c in range(4):
            for y in range(3):
                for x in range(3):
                    cands = [float(teacher[bi, g * 4 + c, y, x]) for g in range(3)]
                    want = max(cands, key=abs)
                    assert abs(float(pooled[bi, c, y, x]) - want) < 1e-6
    print("ok")
