from types import SimpleNamespace

import torch
import torch.nn as nn

IMG_START, IMG_END, IMG_CONTEXT = 90, 91, 92
CFG = SimpleNamespace(vocab_size=100, hidden=32, patch_dim=12, tokens_per_frame=16, num_segments=10)


def sample_frame_indices(video_len, num_segments):
    """Evenly spaced frame ids; short clips give repeated ids, which are dropped."""
    step = video_len / num_segments
    ids = [int(step / 2 + step * i) for i in range(num_segments)]
    return sorted(set(ids))


def load_video(video, num_segments):
    """video: (T, tokens_per_frame, patch_dim) -> frames (F, tokens_per_frame, patch_dim), F <= num_segments."""
    return video[sample_frame_indices(video.size(0), num_segments)]


def build_prompt(question_ids, num_frames, tokens_per_frame):
    ids = []
    for _ in range(num_frames):
        ids += [IMG_START] + [IMG_CONTEXT] * tokens_per_frame + [IMG_END]
    return torch.tensor(ids + question_ids)


class VideoChatModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok_embeddings = nn.Embedding(cfg.vocab_size, cfg.hidden)
        self.vision_proj = nn.Linear(cfg.patch_dim, cfg.hidden)

    def extract_feature(self, pixel_values):
        """pixel_values: (F, tokens_per_frame, patch_dim) -> (F, tokens_per_frame, hidden)."""
        return self.vision_proj(pixel_values)

    def merge_inputs(self, input_ids, pixel_values):
        """Put the visual tokens where the prompt has IMG_CONTEXT placeholders.

        Args:
            input_ids: (seq_len,) prompt ids.
            pixel_values: (F, tokens_per_frame, patch_dim) sampled frames.

        Returns:
            (seq_len, hidden) input embeddings for the language model.
        """
        input_embeds = self.tok_embeddings(input_ids)
        vit_embeds = self.extract_feature(pixel_values)
        selected = input_ids == IMG_CONTEXT
        input_embeds[selected] = vit_embeds.reshape(-1, self.cfg.hidden)
        return input_embeds


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VideoChatModel(CFG)
    clip = torch.randn(8, CFG.tokens_per_frame, CFG.patch_dim)   # a short 8-frame clip
    frames = load_video(clip, CFG.num_segments)
    prompt = build_prompt([5, 17, 23, 42], frames.size(0), CFG.tokens_per_frame)
    with torch.no_grad():
        embeds = model.merge_inputs(prompt, frames)
        feats = model.extract_feature(frames).reshape(-1, CFG.hidden)
        k = 0
        for pos, tok in enumerate(prompt.tolist()):
            if tok == IMG_CONTEXT:
                ref = feats[k]
                k += 1
            else:
                ref = model.tok_embeddings.weight[tok]
            for d in range(CFG.hidden):
                assert abs(float(embeds[pos, d]) - float(ref[d])) < 1e-6
        assert k == feats.size(0)
    print("ok")
