import torch
import torch.nn as nn


class TinyLlavaForConditionalGeneration(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.image_token_index = config["image_token_index"]
        self.embed_tokens = nn.Embedding(config["vocab_size"], config["hidden_size"])
        self.multi_modal_projector = nn.Sequential(
            nn.Linear(config["vision_hidden_size"], config["hidden_size"]),
            nn.GELU(),
            nn.Linear(config["hidden_size"], config["hidden_size"]),
        )

    def get_input_embeddings(self):
        return self.embed_tokens

    def merge_image_features(self, input_ids, image_features):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Token ids; every image patch has a placeholder `image_token_index` in the sequence.
            image_features (`torch.FloatTensor` of shape `(batch_size, num_patches, vision_hidden_size)`):
                Patch features from the vision tower.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`.
        """
        inputs_embeds = self.get_input_embeddings()(input_ids)
        image_embeds = self.multi_modal_projector(image_features)
        special_image_mask = (input_ids == self.image_token_index).unsqueeze(-1).expand_as(inputs_embeds)
        return inputs_embeds.masked_scatter(special_image_mask, image_embeds.to(inputs_embeds.dtype))


class ToyTokenizer:
    def __init__(self, words, extra_special_tokens):
        self.vocab = {w: i for i, w in enumerate(words)}
        for tok in extra_special_tokens:
            self.vocab[tok] = len(self.vocab)

    def __len__(self):
        return len(self.vocab)

    def __call__(self, text, num_patches):
        ids = []
        for w in text.split():
            ids.extend([self.vocab[w]] * (num_patches if w == "<image>" else 1))
        return torch.tensor([ids])


if __name__ == "__main__":
    torch.manual_seed(0)
    words = ["<pad>", "<s>", "</s>"] + [f"w{i}" for i in range(29)]
    tokenizer = ToyTokenizer(words, extra_special_tokens=["<image>"])
    config = {"vocab_size": 32, "hidden_size": 16, "vision_hidden_size": 24}
    config["image_token_index"] = tokenizer.vocab["<image>"]
    model = TinyLlavaForConditionalGeneration(config)

    num_patches = 4
    input_ids = tokenizer("<s> w3 <image> w7 w8 </s>", num_patches)
    image_features = torch.randn(1, num_patches, 24)
    with torch.no_grad():
        embeds = model.merge_image_features(input_ids, image_features)
    print(embeds.shape)
