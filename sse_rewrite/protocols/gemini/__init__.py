"""The Gemini API (`generateContent`, `streamGenerateContent`): Gemini CLI's and Google's SDKs' door."""
