import torch
import torch.nn.functional as F

HEATMAP_SIZE = 128


def non_maximum_suppression(a):
    # a: [N_TYPE, H, W]
    ap = F.max_pool2d(a.unsqueeze(1), 3, stride=1, padding=1).squeeze(1)
    mask = (a == ap).float().clamp(min=0.0)
    return a * mask


class JunctionDecoder:
    def __init__(self, n_dyn_junc=300, eval_junc_thres=0.008):
        self.n_dyn_junc = n_dyn_junc
        self.eval_junc_thres = eval_junc_thres

    def __call__(self, jmap, joff):
        # jmap: [N_TYPE, H, W] junction heatmap
        # joff: [N_TYPE, 2, H, W] sub-pixel offsets (dy, dx) in [-0.5, 0.5)
        n_type = jmap.shape[0]
        jmap = non_maximum_suppression(jmap).reshape(n_type, -1)   # [N_TYPE, H*W]
        joff = joff.reshape(n_type, 2, -1)                          # [N_TYPE, 2, H*W]
        max_K = self.n_dyn_junc // n_type
        K = min(int((jmap > self.eval_junc_thres).float().sum().item()), max_K)
        K = max(K, 2)

        # index: [N_TYPE, K]
        score, index = torch.topk(jmap, k=K)
        y = (index / HEATMAP_SIZE).float() + torch.gather(joff[:, 0], 1, index) + 0.5
        x = (index % HEATMAP_SIZE).float() + torch.gather(joff[:, 1], 1, index) + 0.5

        # xy: [N_TYPE, K, 2]
        xy = torch.cat([y[..., None], x[..., None]], dim=-1)
        return xy, score


if __name__ == "__main__":
    torch.manual_seed(0)
    junctions = [(37, 90), (37, 111), (64, 5), (100, 127), (12, 40)]  # (row, col) cells
    jmap = torch.zeros(1, HEATMAP_SIZE, HEATMAP_SIZE)
    joff = torch.zeros(1, 2, HEATMAP_SIZE, HEATMAP_SIZE)
    for i, (r, c) in enumerate(junctions):
        jmap[0, r, c] = 0.9 - 0.1 * i
        joff[0, 0, r, c] = -0.25
        joff[0, 1, r, c] = 0.125
    xy, score = JunctionDecoder()(jmap, joff)
    print("decoded (y, x):", [[round(v, 4) for v in p] for p in xy[0].tolist()])
    print("expected (y, x):", [[r + 0.25, c + 0.625] for r, c in junctions])
