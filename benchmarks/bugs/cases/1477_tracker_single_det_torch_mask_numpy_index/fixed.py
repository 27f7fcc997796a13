import numpy as np
import torch

TRACKER_CFG = {
    "track_high_thresh": 0.5,
    "track_low_thresh": 0.1,
    "new_track_thresh": 0.6,
    "match_thresh": 0.3,
    "track_buffer": 30,
}


class Boxes:
    """Torch-backed detections as a detector hands them to the tracker."""

    def __init__(self, data):
        self.data = data

    @property
    def xyxy(self):
        return self.data[:, :4]

    @property
    def conf(self):
        return self.data[:, 4]

    @property
    def cls(self):
        return self.data[:, 5]

    def __len__(self):
        return self.data.shape[0]


def box_iou(a, b):
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def greedy_match(cost_iou, thresh):
    matches, used_t, used_d = [], set(), set()
    order = np.dstack(np.unravel_index(np.argsort(-cost_iou, axis=None), cost_iou.shape))[0]
    for t, d in order:
        if cost_iou[t, d] < thresh:
            break
        if t in used_t or d in used_d:
            continue
        matches.append((t, d))
        used_t.add(t)
        used_d.add(d)
    return matches


class Track:
    def __init__(self, box, score, cls, track_id):
        self.box, self.score, self.cls, self.track_id = box, score, cls, track_id

    def update(self, box, score, cls):
        self.box, self.score, self.cls = box, score, cls


class TwoStageTracker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.tracks = []
        self.next_id = 1

    def update(self, results):
        scores = results.conf.cpu().numpy()
        bboxes = results.xyxy.cpu().numpy()
        classes = results.cls.cpu().numpy()

        remain_inds = scores >= self.cfg["track_high_thresh"]
        inds_low = scores > self.cfg["track_low_thresh"]
        inds_high = scores < self.cfg["track_high_thresh"]
        inds_second = inds_low & inds_high

        dets_first = bboxes[remain_inds]
        scores_first = np.asarray(scores[remain_inds])
        cls_first = classes[remain_inds]
        dets_second = bboxes[inds_second]
        scores_second = np.asarray(scores[inds_second])
        cls_second = classes[inds_second]

        active = [t for t in self.tracks]
        track_boxes = np.array([t.box for t in active]).reshape(-1, 4)
        out = []
        first = greedy_match(box_iou(track_boxes, dets_first), self.cfg["match_thresh"])
        for t, d in first:
            active[t].update(dets_first[d], scores_first[d], cls_first[d])
            out.append(active[t])
        matched_tracks = {t for t, _ in first}
        first_matched = {d for _, d in first}

        rest = [i for i in range(len(active)) if i not in matched_tracks]
        rest_boxes = track_boxes[rest].reshape(-1, 4)
        for t, d in greedy_match(box_iou(rest_boxes, dets_second), self.cfg["match_thresh"]):
            active[rest[t]].update(dets_second[d], scores_second[d], cls_second[d])
            out.append(active[rest[t]])

        for d in range(len(dets_first)):
            if d in first_matched or scores_first[d] < self.cfg["new_track_thresh"]:
                continue
            track = Track(dets_first[d], scores_first[d], cls_first[d], self.next_id)
            self.next_id += 1
            self.tracks.append(track)
            out.append(track)
        return np.array([[*t.box, t.track_id, t.score, t.cls] for t in out]).reshape(-1, 7)


def reference_high_dets(frame, thresh):
    rows = []
    for r in range(frame.shape[0]):
        if float(frame[r, 4]) >= thresh:
            rows.append([float(v) for v in frame[r, :4]])
    return rows


if __name__ == "__main__":
    tracker = TwoStageTracker(TRACKER_CFG)
    frames = [
        torch.tensor([[100.0, 100.0, 200.0, 200.0, 0.9, 0.0], [300.0, 120.0, 380.0, 260.0, 0.8, 2.0]]),
        torch.tensor([[104.0, 102.0, 203.0, 204.0, 0.85, 0.0]]),
        torch.tensor([[305.0, 118.0, 384.0, 262.0, 0.3, 2.0]]),
    ]
    expected_ids = [[1, 2], [1], [2]]
    for i, frame in enumerate(frames):
        tracks = tracker.update(Boxes(frame))
        assert tracks[:, 4].astype(int).tolist() == expected_ids[i]
        if i < 2:
            ref = reference_high_dets(frame, TRACKER_CFG["track_high_thresh"])
            assert np.allclose(tracks[:, :4], np.array(ref))
    assert np.allclose(tracks[0, :4], frames[2][0, :4].numpy())
    print("ok")
