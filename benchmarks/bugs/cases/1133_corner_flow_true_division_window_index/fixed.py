import math

import torch
import torch.nn.functional as F


def indice2flow(ind, d):
    # ind: (B, 1, H, W) flat position inside the d x d search window
    return torch.cat([ind % d - d // 2, ind // d - d // 2], 1)


def prob2cornerflow(prob, normalize=True):
    # prob: (B, d*d, H, W) matching scores over a d x d displacement window
    if normalize:
        prob = F.softmax(prob, dim=1)
    B, C, H, W = prob.size()
    d = int(math.sqrt(C))
    pr = prob.reshape(B, d, d, -1).permute(0, 3, 1, 2)  # (B, H*W, d, d)
    pooled = F.avg_pool2d(pr, kernel_size=2, stride=1)  # (B, H*W, d-1, d-1)
    _, indice = F.max_pool2d(pooled, kernel_size=d - 1, stride=1, return_indices=True)
    indice = indice + indice // (d - 1)  # (d-1)x(d-1) grid -> d x d grid
    indice = indice.reshape(B, H, W).unsqueeze(1)  # (B, 1, H, W)
    corners = [indice, indice + 1, indice + d, indice + d + 1]  # lt, rt, lb, rb
    cor_prob = [torch.gather(prob, 1, c) for c in corners]
    cor_flow = [indice2flow(c, d).float() for c in corners]
    return cor_prob, cor_flow


def cornerflow2expectation(cor_prob, cor_flow):
    total = sum(cor_prob)
    p = [c / total for c in cor_prob]
    u = cor_flow[1][:, 0:1] - p[0] - p[2]
    v = cor_flow[2][:, 1:2] - p[0] - p[1]
    return torch.cat([u, v], 1)  # (B, 2, H, W)


if __name__ == "__main__":
    torch.manual_seed(0)
    cost = torch.randn(2, 25, 6, 8)  # 5x5 window over a 6x8 feature map
    cor_prob, cor_flow = prob2cornerflow(cost)
    flow = cornerflow2expectation(cor_prob, cor_flow)
    prob = F.softmax(cost, dim=1)
    d = 5
    for b in range(2):
        for y in range(6):
            for x in range(8):
                p = [[prob[b, i * d + j, y, x].item() for j in range(d)] for i in range(d)]
                best, bi, bj = None, 0, 0
                for i in range(d - 1):
                    for j in range(d - 1):
                        s = p[i][j] + p[i][j + 1] + p[i + 1][j] + p[i + 1][j + 1]
                        if best is None or s > best:
                            best, bi, bj = s, i, j
                lt, rt, lb, rb = p[bi][bj], p[bi][bj + 1], p[bi + 1][bj], p[bi + 1][bj + 1]
                tot = lt + rt + lb + rb
                u = (bj + 1 - d // 2) - lt / tot - lb / tot
                v = (bi + 1 - d // 2) - lt / tot - rt / tot
                assert abs(flow[b, 0, y, x].item() - u) < 1e-5
                assert abs(flow[b, 1, y, x].item() - v) < 1e-5
    print("ok")
