import torch


def pairwise_iou(a, b):
    # a: [M, 4], b: [N, 4] (x1, y1, x2, y2) -> [M, N]
    lt = torch.maximum(a[:, None, :2], b[None, :, :2])
    rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def greedy_assign(iou, thresh):
    # iou: [T, D] -> list of (track_row, det_row)
    pairs = []
    iou = iou.clone()
    while iou.numel() and iou.max() >= thresh:
        flat = iou.argmax()
        t, d = divmod(flat.item(), iou.shape[1])
        pairs.append((t, d))
        iou[t, :] = -1
        iou[:, d] = -1
    return pairs


class ByteStyleTracker:
    def __init__(self, high=0.5, low=0.1, match_iou=0.3):
        self.high, self.low, self.match_iou = high, low, match_iou
        self.boxes = torch.zeros(0, 4)  # [T, 4] last box of every live track
        self.ids = []
        self.next_id = 1

    def _associate(self, track_rows, dets, det_idx):
        # dets: [D, 4], det_idx: [D] index of every det row in the frame's detection list
        if len(track_rows) == 0 or dets.shape[0] == 0:
            return [], list(range(dets.shape[0]))
        pairs = greedy_assign(pairwise_iou(self.boxes[track_rows], dets), self.match_iou)
        matched = []
        for t, d in pairs:
            self.boxes[track_rows[t]] = dets[d]
            matched.append((self.ids[track_rows[t]], dets[d], det_idx[d]))
        used = {d for _, d in pairs}
        return matched, [d for d in range(dets.shape[0]) if d not in used]

    def update(self, dets):
        # dets: [N, 5] (x1, y1, x2, y2, score)
        # returns [M, 6] (x1, y1, x2, y2, track_id, det_index)
        scores = dets[:, 4]
        high = scores >= self.high
        second = (scores > self.low) & ~high
        dets_high, dets_low = dets[high, :4], dets[second, :4]
        idx_high = torch.arange(dets_high.shape[0])
        idx_low = torch.arange(dets_low.shape[0])

        all_rows = list(range(len(self.ids)))
        first, unmatched_high = self._associate(all_rows, dets_high, idx_high)
        seen = {tid for tid, _, _ in first}
        left = [r for r in all_rows if self.ids[r] not in seen]
        second_matches, _ = self._associate(left, dets_low, idx_low)

        out = first + second_matches
        for d in unmatched_high:
            self.boxes = torch.cat([self.boxes, dets_high[d : d + 1]])
            self.ids.append(self.next_id)
            out.append((self.next_id, dets_high[d], idx_high[d]))
            self.next_id += 1
        return torch.stack([torch.cat([box, torch.tensor([float(tid), float(di)])]) for tid, box, di in out])


def attach_keypoints(tracks, keypoints):
    # tracks: [M, 6], keypoints: [N, K, 3] per detection of the frame -> [M, K, 3]
    det_index = tracks[:, 5].long()
    return keypoints.index_select(0, det_index)


if __name__ == "__main__":
    torch.manual_seed(0)
    tracker = ByteStyleTracker()
    frame0 = torch.tensor([[10.0, 10.0, 60.0, 90.0, 0.9], [200.0, 40.0, 250.0, 130.0, 0.8]])
    tracker.update(frame0)

    frame1 = torch.tensor([
        [12.0, 11.0, 62.0, 92.0, 0.88],     # person 1, still confident
        [400.0, 50.0, 450.0, 140.0, 0.75],  # someone new
        [204.0, 42.0, 253.0, 133.0, 0.3],   # person 2, occluded -> low score
    ])
    keypoints = torch.randn(3, 17, 3)  # [N, K, 3] pose head output for frame1
    tracks = tracker.update(frame1)
    kpts = attach_keypoints(tracks, keypoints)
    print("det index per track:", tracks[:, 5].long().tolist())
    for row, k in zip(tracks, kpts):
        box = row[:4]
        own = int(((frame1[:, :4] - box).abs().sum(1)).argmin())
        print(f"track {int(row[4])}: box from det {own}, keypoints from det {int(row[5])}, "
              f"match: {torch.equal(k, keypoints[own])}")
