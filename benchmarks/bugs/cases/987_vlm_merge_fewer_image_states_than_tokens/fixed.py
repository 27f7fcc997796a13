from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class VisionConfig:
    image_size: int = 32
    patch_size: int = 4
    hidden_size: int = 8
    scale_factor: int = 4


@dataclass
class ProcessorConfig:
    image_token_id: int = 99
    image_seq_len: int = 16


class TinyProcessor:
    def __init__(self, cfg: ProcessorConfig):
        self.cfg = cfg

    def __call__(self, prompt_ids, n_images):
        image_block = [self.cfg.image_token_id] * (self.cfg.image_seq_len * n_images)
        return torch.tensor([image_block + prompt_ids])


class TinyVLM(nn.Module):
    def __init__(self, vcfg: VisionConfig, image_token_id: int, vocab_size: int = 128):
        super().__init__()
        self.vcfg, self.image_token_id = vcfg, image_token_id
        self.embed_tokens = nn.Embedding(vocab_size, vcfg.hidden_size)
        self.patch_proj = nn.Linear(3 * vcfg.patch_size ** 2, vcfg.hidden_size)

    def image_hidden_states(self, pixel_values):
        p, s = self.vcfg.patch_size, self.vcfg.scale_factor
        n, c, h, w = pixel_values.shape
        patches = pixel_values.unfold(2, p, p).unfold(3, p, p)        # n, c, h/p, w/p, p, p
        patches = patches.permute(0, 2, 3, 1, 4, 5).reshape(n, h // p, w // p, -1)
        feats = self.patch_proj(patches)                               # n, h/p, w/p, d
        feats = feats.unfold(1, s, s).unfold(2, s, s).mean((-1, -2))   # pixel-shuffle-style pooling
        return feats.reshape(n, -1, self.vcfg.hidden_size)

    def inputs_merger(self, input_ids, inputs_embeds, image_hidden_states):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`)
            inputs_embeds (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`)
            image_hidden_states (`torch.FloatTensor` of shape `(num_images, image_seq_len, hidden_size)`)
        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`
        """
        d = inputs_embeds.shape[-1]
        flat = inputs_embeds.reshape(-1, d)
        pos = (input_ids.reshape(-1) == self.image_token_id).nonzero().squeeze(-1)
        feats = image_hidden_states.reshape(-1, d)
        merged = flat.scatter(0, pos[:, None].expand(-1, d), feats)
        return merged.view_as(inputs_embeds)

    def forward(self, input_ids, pixel_values):
        embeds = self.embed_tokens(input_ids)
        return self.inputs_merger(input_ids, embeds, self.image_hidden_states(pixel_values))


if __name__ == "__main__":
    torch.manual_seed(0)
    vcfg = VisionConfig()
    seq_len = (vcfg.image_size // vcfg.patch_size) ** 2 // vcfg.scale_factor ** 2
    proc = TinyProcessor(ProcessorConfig(image_seq_len=seq_len))
    model = TinyVLM(vcfg, image_token_id=99)
    ids = proc([5, 17, 42, 7], n_images=2)
    pixels = torch.rand(2, 3, 32, 32)
    with torch.no_grad():
        out = model(ids, pixels)
        feats = model.image_hidden_states(pixels).reshape(-1, 8)
        text = model.embed_tokens(ids)[0]
    k = 0
    for t in range(ids.shape[1]):
        if ids[0, t].item() == 99:
            assert torch.equal(out[0, t], feats[k])
            k += 1
        else:
            assert torch.equal(out[0, t], text[t])
    assert k == feats.shape[0] == 8
    print("ok")
