from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class VisionTextConfig:
    vocab_size: int = 50
    hidden_size: int = 8
    image_token_id: int = 49
    image_seq_len: int = 4
    do_image_splitting: bool = True


def crops_per_image(do_image_splitting):
    return 5 if do_image_splitting else 1


class TinyProcessor:
    def __init__(self, config):
        self.config = config

    def __call__(self, prompt_ids, images, do_image_splitting=False):
        """Expands one `<image>` placeholder per image and stacks the crops.

        Returns:
            input_ids (`torch.LongTensor` of shape `(1, seq_len)`)
            pixel_values (`torch.FloatTensor` of shape `(num_images * num_crops, 3, 6, 6)`)
        """
        n = self.config.image_seq_len * crops_per_image(self.config.do_image_splitting)
        ids = [self.config.image_token_id] * (n * len(images)) + prompt_ids
        crops = [img for img in images for _ in range(crops_per_image(do_image_splitting))]
        return torch.tensor([ids]), torch.stack(crops)


class TinyVisionLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.vision = nn.Linear(3 * 6 * 6, config.image_seq_len * config.hidden_size)

    def inputs_merger(self, input_ids, inputs_embeds, image_hidden_states):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch, seq_len)`)
            inputs_embeds (`torch.FloatTensor` of shape `(batch, seq_len, hidden_size)`)
            image_hidden_states (`torch.FloatTensor` of shape `(num_crops, image_seq_len, hidden_size)`)
        """
        special_image_token_mask = input_ids == self.config.image_token_id
        new_inputs_embeds = inputs_embeds.clone()
        reshaped = image_hidden_states.view(-1, self.config.hidden_size)
        new_inputs_embeds[special_image_token_mask] = reshaped
        return new_inputs_embeds

    def forward(self, input_ids, pixel_values):
        feats = self.vision(pixel_values.flatten(1)).view(-1, self.config.image_seq_len, self.config.hidden_size)
        return self.inputs_merger(input_ids, self.embed(input_ids), feats)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = VisionTextConfig()
    processor = TinyProcessor(config)
    model = TinyVisionLM(config)
    images = [torch.randn(3, 6, 6), torch.randn(3, 6, 6)]
    input_ids, pixel_values = processor([3, 7, 9], images, do_image_splitting=config.do_image_splitting)
    with torch.no_grad():
        out = model(input_ids, pixel_values)
        feats = model.vision(pixel_values.flatten(1)).view(-1, config.hidden_size)
        text = model.embed(input_ids)
        k = 0
        for t in range(input_ids.size(1)):
            if input_ids[0, t].item() == config.image_token_id:
                assert torch.allclose(out[0, t], feats[k])
                k += 1
            else:
                assert torch.allclose(out[0, t], text[0, t])
        assert k == feats.size(0)
    print("ok")
