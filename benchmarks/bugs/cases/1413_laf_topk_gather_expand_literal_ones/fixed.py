import math

import torch
import torch.nn.functional as F


def get_default_detector_config():
    return {"nms_size": 5, "pyramid_levels": 2, "scale_factor_levels": math.sqrt(2), "s_mult": 6.0}


class MultiLevelBlobDetector:
    def __init__(self, num_features, config=None):
        self.num_features = num_features
        self.config = config or get_default_detector_config()

    def response(self, img):
        blurred = F.avg_pool2d(img, 3, stride=1, padding=1)
        return (img - blurred).abs().sum(1, keepdim=True)

    def detect_features_on_single_level(self, img, num_points, factor):
        resp = self.response(img)
        nms = self.config["nms_size"]
        peaks = resp * (resp == F.max_pool2d(resp, nms, stride=1, padding=nms // 2))
        b, _, h, w = peaks.shape
        scores, flat = peaks.view(b, -1).topk(min(num_points, h * w), dim=1)
        ys = (flat // w).float() * factor[1]
        xs = (flat % w).float() * factor[0]
        scale = self.config["s_mult"] * (factor[0] + factor[1]) / 2
        lafs = torch.zeros(b, flat.shape[1], 2, 3)
        lafs[..., 0, 0] = scale
        lafs[..., 1, 1] = scale
        lafs[..., 0, 2] = xs
        lafs[..., 1, 2] = ys
        return scores, lafs

    def detect(self, img):
        _, _, h, w = img.shape
        cur_img = img
        all_responses, all_lafs = [], []
        for level in range(self.config["pyramid_levels"] + 1):
            if level > 0:
                cur_img = F.interpolate(cur_img, scale_factor=1 / self.config["scale_factor_levels"], mode="bilinear")
            _, _, nh, nw = cur_img.shape
            factor = (w / nw, h / nh)
            scores, lafs = self.detect_features_on_single_level(cur_img, self.num_features, factor)
            all_responses.append(scores)
            all_lafs.append(lafs)
        responses = torch.cat(all_responses, 1)
        lafs = torch.cat(all_lafs, 1)
        if lafs.shape[1] > self.num_features:
            responses, idxs = torch.topk(responses, k=self.num_features, dim=1)
            lafs = torch.gather(lafs, 1, idxs[..., None, None].expand(-1, -1, 2, 3))
        return responses, lafs


if __name__ == "__main__":
    torch.manual_seed(0)
    detector = MultiLevelBlobDetector(num_features=50)
    img = torch.rand(1, 1, 48, 64)
    responses, lafs = detector.detect(img)

    all_scores, all_lafs = [], []
    cur = img
    for level in range(detector.config["pyramid_levels"] + 1):
        if level > 0:
            cur = F.interpolate(cur, scale_factor=1 / detector.config["scale_factor_levels"], mode="bilinear")
        factor = (64 / cur.shape[-1], 48 / cur.shape[-2])
        s, l = detector.detect_features_on_single_level(cur, detector.num_features, factor)
        all_scores += s[0].tolist()
        all_lafs += [l[0, i] for i in range(l.shape[1])]
    top_scores = sorted(all_scores, reverse=True)[: detector.num_features]
    assert lafs.shape == (1, 50, 2, 3)
    for k in range(detector.num_features):
        score = responses[0, k].item()
        assert abs(score - top_scores[k]) < 1e-6
        candidates = [all_lafs[i] for i in range(len(all_scores)) if abs(all_scores[i] - score) < 1e-6]
        assert any(torch.allclose(lafs[0, k], c) for c in candidates)
    print("ok")
