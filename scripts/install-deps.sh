#!/usr/bin/env bash
# Installs the Debian packages this project needs, only those missing, so it
# is cheap to run before every build. Run as root, or as a user with sudo.
# Debian 12 (bookworm) and Debian 13 (trixie): the few names that differ are
# chosen by the release's VERSION_CODENAME. Without a Swift on PATH or in
# /opt/swift, it installs Debian's own Swift (swiftlang) where the release
# has it (Debian 13); Debian 12 and testing have none, so there the Swift 6
# toolchain comes from swift.org.
set -euo pipefail

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
case $codename in
    bookworm)
        webdriver=webkit2gtk-driver
        ;;
    *)
        # Renamed in trixie; webkit2gtk-driver is a transitional package there.
        webdriver=webkitgtk-webdriver
        ;;
esac

packages=(
    # Building: the C libraries the Swift targets link, and pkg-config to find them.
    pkg-config libdbus-1-dev libglib2.0-dev libnotify-dev libsqlite3-dev libcurl4-openssl-dev
    # The zone database the display text reads, and the CA store libcurl uses.
    tzdata ca-certificates
    # The translations: msgfmt and xgettext for the catalogs, appstream's
    # ITS rules for the metainfo's texts, and every locale (de_DE.UTF-8,
    # fr_FR.UTF-8, ...) for the tests that run the programs in each language.
    gettext appstream locales-all
    # GNOME's clock-format key, which the agent follows, and dconf, where
    # GNOME keeps it and the tests change it.
    gsettings-desktop-schemas dconf-service dconf-gsettings-backend
    # The reference platform and its test certificates; the Flatpak
    # manifest's tests read it as YAML.
    python3 openssl python3-yaml
    # The integration tests and the demo: a private session bus, and the
    # clients other apps would use (gdbus, python3-dbus with GLib's loop).
    dbus-daemon dbus-bin libglib2.0-bin python3-dbus python3-gi
    # The notification tests: a headless X server, two real notification
    # servers, a way to press their buttons, and screenshots.
    xvfb xfce4-notifyd dunst xdotool imagemagick
    # GNOME Shell 43 headless as a third notification server; its
    # notification service is a gjs program.
    gnome-shell gjs
    # The desktop app: GTK 4 and WebKitGTK 6.0; its tests drive it through
    # WebKit's WebDriver and read X window properties; xdg-open and
    # xdg-mime find it as the dreamsforlittles:// handler; appstream checks
    # its metainfo; tsc checks the JavaScript client's declarations.
    libgtk-4-dev libwebkitgtk-6.0-dev "$webdriver" x11-utils xdg-utils appstream node-typescript
    # The accessibility tests read the app's window through AT-SPI: its bus
    # and registry, and the client library for Python.
    at-spi2-core gir1.2-atspi-2.0
    # The style tests: the settings portal and its GTK backend, which serve
    # the app the desktop's colour scheme, contrast and text scale.
    xdg-desktop-portal xdg-desktop-portal-gtk
    # The panel indicator's tests: a real StatusNotifierItem host (the
    # systray of xfce4-panel, with its settings daemon xfconfd), and
    # tesseract to read what it shows off the screen.
    xfce4-panel xfconf tesseract-ocr tesseract-ocr-eng
    # The configuration tests measure the agent's peak memory with GNU time.
    time
    # The contract test reads the introspection file with FoundationXML,
    # which loads libxml2.
    libxml2
    # The soak run (make soak) speeds the agent's clock up with libfaketime;
    # the clock tests move the agent's and the platform's clocks with it.
    faketime
    # The bridge's JavaScript client is tested with node's own test runner.
    nodejs
    # The benchmark builds its C floor programs.
    gcc libc6-dev
    # The Debian package: building it, checking it, and trying it under a
    # real systemd --user.
    build-essential dpkg-dev debhelper lintian desktop-file-utils bash-completion man-db
    systemd dbus-user-session util-linux
    # The package test asks python3-apt's DebPackage, which Ubuntu's and
    # Mint's graphical installers build on, whether the package installs.
    python3-apt
    # The shells whose completions of dfl-sleepctl the package ships, and an
    # XDG autostart runner that logs in the way XFCE or MATE does.
    zsh fish dex
    # The Debian 13 root of the desktop tests and the package test
    # (Tests/Trixie/root.sh): debootstrap makes it, unshare enters it.
    debootstrap
)

# Swift: a toolchain on PATH or in /opt/swift is used as it is. Otherwise
# Debian's own swiftlang where the release has one (Debian 13); Debian 12
# and testing (forky) have none, and there the Swift 6 toolchain comes
# from swift.org. The package lists may not be read yet on a new machine:
# apt-get update first.
if ! PATH=$PATH:/opt/swift/usr/bin command -v swift >/dev/null; then
    if [[ $codename != bookworm ]] && { apt-cache show swiftlang >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-cache show swiftlang >/dev/null 2>&1; }; }; then
        packages+=(swiftlang)
    else
        echo "install-deps: no swift on PATH or in /opt/swift/usr/bin, and ${codename:-this release} has no Swift" \
            "package (swiftlang): install the Swift 6 toolchain from swift.org into /opt/swift" >&2
    fi
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
