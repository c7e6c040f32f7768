from django import forms

from .restore import MAX_BYTES, ImportRefused, Restored, read_document, restore_table


class RestoreForm(forms.Form):
    """The upload: read and restored as a preview (rolled back), nothing kept yet."""

    export = forms.FileField(
        label="Table export (.json)",
        help_text="The file “Download the table export” gives, on this server or another.",
    )

    def __init__(self, *args, gm, **kwargs):
        super().__init__(*args, **kwargs)
        self.gm = gm

    def clean_export(self):
        upload = self.cleaned_data["export"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB: not a table export."
            )
        raw = upload.read()
        try:
            document = read_document(raw)
            self.preview: Restored = restore_table(document, gm=self.gm, preview=True)
        except ImportRefused as error:
            raise forms.ValidationError(str(error)) from None
        self.text = raw.decode("utf-8-sig")
        return upload
