import torch

COCO_TO_HALPE_UPPER = [
    (0, 0),   # nose
    (5, 1),   # left shoulder
    (6, 2),   # right shoulder
    (7, 3),   # left elbow
    (8, 4),   # right elbow
    (9, 5),   # left wrist
    (10, 6),  # right wrist
]


class KeypointRemapper:
    def __init__(self, num_keypoints, mapping):
        self.num_keypoints = num_keypoints
        if len(mapping):
            self.source_index, self.target_index = map(list, zip(*mapping))
        else:
            self.source_index, self.target_index = [], []

    def remap_sigmas(self, sigmas):
        new_sigmas = torch.ones(self.num_keypoints, dtype=sigmas.dtype)
        new_sigmas[self.target_index] = sigmas[self.source_index]
        return new_sigmas

    def remap_instance(self, keypoints):
        c = keypoints.shape[-1]
        new_keypoints = keypoints.new_zeros(self.num_keypoints, c)
        new_keypoints[self.target_index] = keypoints[self.source_index]
        return new_keypoints


if __name__ == "__main__":
    torch.manual_seed(0)
    remapper = KeypointRemapper(7, COCO_TO_HALPE_UPPER)
    coco_kpts = torch.cat([torch.rand(17, 2) * 256, torch.ones(17, 1)], dim=1)
    upper = remapper.remap_instance(coco_kpts)
    ref = torch.zeros(7, 3)
    for src_k, dst_k in COCO_TO_HALPE_UPPER:
        for j in range(3):
            ref[dst_k, j] = coco_kpts[src_k, j]
    assert torch.equal(upper, ref)
    sigmas = torch.linspace(0.025, 0.107, 17)
    new_sigmas = remapper.remap_sigmas(sigmas)
    ref_sigmas = [1.0] * 7
    for src_k, dst_k in COCO_TO_HALPE_UPPER:
        ref_sigmas[dst_k] = sigmas[src_k].item()
    assert torch.allclose(new_sigmas, torch.tensor(ref_sigmas))
    print("ok")
