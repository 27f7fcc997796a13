import numpy as np
import torch

# COCO order: nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles
FLIP_PAIRS = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16)]


def build_flip_index(num_joints, pairs):
    perm = np.arange(num_joints, dtype=np.int64)
    for a, b in pairs:
        perm[a], perm[b] = b, a
    return torch.from_numpy(perm)


class HorizontalFlip:
    def __init__(self, image_width, num_joints=17):
        self.image_width = image_width
        self.flip_index = build_flip_index(num_joints, FLIP_PAIRS)

    def __call__(self, image, keypoints):
        image = image.flip(-1)
        keypoints = keypoints[:, self.flip_index].clone()
        keypoints[..., 0] = self.image_width - 1 - keypoints[..., 0]
        return image, keypoints


def main():
    torch.manual_seed(0)
    images = torch.rand(2, 3, 64, 48)
    keypoints = torch.rand(2, 17, 3) * torch.tensor([48.0, 64.0, 1.0])
    flip = HorizontalFlip(image_width=48)
    flipped_images, flipped_kpts = flip(images, keypoints)
    assert flipped_kpts.shape == keypoints.shape
    swap = {}
    for a, b in FLIP_PAIRS:
        swap[a], swap[b] = b, a
    for n in range(2):
        for j in range(17):
            src = swap.get(j, j)
            assert torch.allclose(flipped_kpts[n, j, 0], 47 - keypoints[n, src, 0])
            assert torch.equal(flipped_kpts[n, j, 1:], keypoints[n, src, 1:])
    assert torch.equal(flipped_images, images.flip(-1))
    print("ok")


if __name__ == "__main__":
    main()
