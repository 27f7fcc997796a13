import torch


class Detection:
    def __init__(self, box, score, cls):
        self.box = box
        self.score = float(score)
        self.cls = int(cls)

    def __repr__(self):
        return f"Detection(score={self.score:.2f}, cls={self.cls})"


class TwoStageSplitter:
    """ByteTrack-style split of one frame's detections into a high- and a low-confidence pool."""

    def __init__(self, track_thresh=0.5, low_thresh=0.1):
        self.track_thresh = track_thresh
        self.low_thresh = low_thresh

    def split(self, dets):
        # dets: [N, 6] = x1, y1, x2, y2, conf, cls
        xyxy = dets[:, :4]        # [N, 4]
        confs = dets[:, 4]        # [N]
        classes = dets[:, 5]      # [N]

        remain_inds = confs > self.track_thresh                       # [N] bool
        inds_low = confs > self.low_thresh
        inds_high = confs < self.track_thresh
        inds_second = inds_low & inds_high                            # [N] bool

        dets_first = xyxy[remain_inds]                                # [N1, 4]
        scores_first = confs[remain_inds]                             # [N1]
        clss_first = classes[remain_inds]                             # [N1]

        dets_second = xyxy[inds_second]                               # [N2, 4]
        scores_second = confs[inds_second]                            # [N2]
        clss_second = classes[remain_inds]                            # [N2]

        first = [Detection(b, s, c) for b, s, c in zip(dets_first, scores_first, clss_first)]
        second = [Detection(b, s, c) for b, s, c in zip(dets_second, scores_second, clss_second)]
        return first, second


def make_frame():
    boxes = torch.tensor([
        [10., 10., 50., 80.],
        [60., 15., 90., 70.],
        [100., 20., 140., 90.],
        [150., 30., 180., 60.],
        [200., 40., 230., 95.],
    ])
    confs = torch.tensor([0.91, 0.35, 0.82, 0.22, 0.05])
    classes = torch.tensor([0., 2., 0., 7., 2.])
    return torch.cat([boxes, confs[:, None], classes[:, None]], dim=1)


if __name__ == "__main__":
    frame = make_frame()
    splitter = TwoStageSplitter(track_thresh=0.5, low_thresh=0.1)
    first, second = splitter.split(frame)
    print("first pool :", first)
    print("second pool:", second)
    print("second-pool classes:", [d.cls for d in second], "expected:", [2, 7])
