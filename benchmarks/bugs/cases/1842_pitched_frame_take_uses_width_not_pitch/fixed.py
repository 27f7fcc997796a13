import torch


class PitchedFrame:
    """A camera frame stored row-padded: each row occupies `pitch` elements, of which `width` are pixels."""

    def __init__(self, height, width, pitch):
        self.height, self.width, self.pitch = height, width, pitch
        self.storage = torch.zeros(height * pitch)

    def upload(self, image):
        self.storage.view(self.height, self.pitch)[:, : self.width] = image

    def sample(self, rows, cols):
        return torch.take(self.storage, rows * self.pitch + cols)


def keypoint_intensities(frame, keypoints):
    rows, cols = keypoints[:, 0], keypoints[:, 1]
    return frame.sample(rows, cols)


if __name__ == "__main__":
    torch.manual_seed(0)
    frame = PitchedFrame(height=6, width=10, pitch=16)
    image = torch.rand(6, 10)
    frame.upload(image)
    keypoints = torch.stack([torch.randint(0, 6, (8,)), torch.randint(0, 10, (8,))], dim=1)
    values = keypoint_intensities(frame, keypoints)
    for i in range(keypoints.size(0)):
        assert values[i] == image[keypoints[i, 0], keypoints[i, 1]], i
    print("ok")
