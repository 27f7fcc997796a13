import torch
import torch.nn.functional as F


def heatmaps_to_keypoints(maps, rois):
    # maps: (R, K, Hm, Wm) keypoint logits, rois: (R, 4) boxes x1, y1, x2, y2
    num_rois, num_kp, hm, wm = maps.shape
    xy_preds = maps.new_zeros(num_rois, 3, num_kp)
    end_scores = maps.new_zeros(num_rois, num_kp)
    for i in range(num_rois):
        x1, y1, x2, y2 = rois[i].tolist()
        w = max(int(round(x2 - x1)), 1)
        h = max(int(round(y2 - y1)), 1)
        roi_map = F.interpolate(maps[i:i + 1], size=(h, w), mode="bicubic", align_corners=False)[0]  # (K, h, w)
        pos = roi_map.reshape(num_kp, -1).argmax(dim=1)  # (K,)
        x_int = pos % w
        y_int = torch.div(pos - x_int, w, rounding_mode="floor")
        xy_preds[i, 0] = (x_int.float() + 0.5) * (x2 - x1) / w + x1
        xy_preds[i, 1] = (y_int.float() + 0.5) * (y2 - y1) / h + y1
        xy_preds[i, 2] = 1.0
        picked = roi_map.index_select(1, y_int).index_select(2, x_int)  # (K, K, K)
        end_scores[i] = picked[:num_kp, 0, 0]
    return xy_preds.permute(0, 2, 1), end_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    maps = torch.randn(2, 5, 14, 14)
    rois = torch.tensor([[10.0, 20.0, 40.0, 60.0], [0.0, 0.0, 28.0, 28.0]])
    kps, scores = heatmaps_to_keypoints(maps, rois)
    best = []
    for i in range(2):
        w = int(round(rois[i, 2].item() - rois[i, 0].item()))
        h = int(round(rois[i, 3].item() - rois[i, 1].item()))
        roi_map = F.interpolate(maps[i:i + 1], size=(h, w), mode="bicubic", align_corners=False)[0]
        best.append([roi_map[k].max().item() for k in range(5)])
    print("scores:  ", [[round(v, 3) for v in row] for row in scores.tolist()])
    print("expected:", [[round(v, 3) for v in row] for row in best])
